import Domain
import Foundation

/// otpauth:// URIs one a line (blank lines and `#` comments allowed), and Ente Auth's export:
/// the same, with a `codeDisplay` JSON parameter carrying tags, pins and notes.
enum KeyURIListDecoder {
    static func decode(_ data: Data, format: ImportFormat) throws -> DecodedImport {
        guard let text = String(data: data, encoding: .utf8) else { throw ImportError.malformed(format, "it is not text") }
        var collector = InteropCollector()
        for (index, rawLine) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let display = format == .ente ? EnteCodeDisplay(uri: line) : nil
            if display?.trashed == true { collector.notice("line \(index + 1)", "in Ente's trash; imported anyway") }
            collector.add(
                uri: line, position: "line \(index + 1)", note: display?.note ?? "", groups: display?.tags ?? [],
                isFavorite: display?.pinned ?? false)
        }
        return collector.result(format)
    }
}

/// Ente Auth's `codeDisplay` parameter: {"pinned":…, "trashed":…, "tags":[…], "note":…}.
struct EnteCodeDisplay: Decodable {
    var pinned: Bool?
    var trashed: Bool?
    var tags: [String]?
    var note: String?

    init?(uri: String) {
        guard let query = uri.split(separator: "?", maxSplits: 1).last,
            let pair = query.split(separator: "&").first(where: { $0.hasPrefix("codeDisplay=") }),
            let json = String(pair.dropFirst("codeDisplay=".count)).replacingOccurrences(of: "+", with: " ").removingPercentEncoding,
            let decoded = try? JSONDecoder().decode(EnteCodeDisplay.self, from: Data(json.utf8))
        else { return nil }
        self = decoded
    }
}
