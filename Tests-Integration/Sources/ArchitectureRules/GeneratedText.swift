/// Compares a committed file (or block) with the text generated from the manifests.
enum GeneratedText {
    /// One violation per line only one side has, or one saying the order differs; none when equal.
    static func differences(at location: String, committed: String, generated: String, fix command: String) -> [Violation] {
        guard committed != generated else { return [] }
        let committedLines = Set(committed.split(separator: "\n"))
        let generatedLines = Set(generated.split(separator: "\n"))
        let stale = committedLines.subtracting(generatedLines).sorted()
            .map { "committed but not in manifests: \($0.trimmingCharacters(in: .whitespaces))" }
        let missing = generatedLines.subtracting(committedLines).sorted()
            .map { "in manifests but not committed: \($0.trimmingCharacters(in: .whitespaces))" }
        let details = (stale + missing).isEmpty ? ["order or formatting differs"] : stale + missing
        return details.map { Violation(location, "\($0) (run `\(command)`)") }
    }
}
