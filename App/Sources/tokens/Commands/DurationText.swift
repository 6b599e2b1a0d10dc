/// Durations as people type and read them: `90s`, `15m`, `2h`, `1h30m`, or plain seconds.
enum DurationText {
    /// Seconds in `text`, or nil when it is not a duration.
    static func seconds(_ text: String) -> Int? {
        if let plain = Int(text) { return plain }
        var total = 0
        var digits = ""
        for character in text {
            if character.isASCII, character.isNumber {
                digits.append(character)
                continue
            }
            guard let value = Int(digits), let unit = ["s": 1, "m": 60, "h": 3_600][String(character)] else { return nil }
            let (product, overflow) = value.multipliedReportingOverflow(by: unit)
            guard !overflow, total <= Int.max - product else { return nil }
            total += product
            digits = ""
        }
        return digits.isEmpty && !text.isEmpty ? total : nil
    }

    /// `1h 30m`, `15m`, `45s`.
    static func text(seconds: Int) -> String {
        let parts = [(seconds / 3_600, "h"), (seconds % 3_600 / 60, "m"), (seconds % 60, "s")]
            .filter { $0.0 > 0 }.map { "\($0.0)\($0.1)" }
        return parts.isEmpty ? "0s" : parts.joined(separator: " ")
    }
}
