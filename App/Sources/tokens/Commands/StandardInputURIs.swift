import Foundation

/// Key URIs given as `-`: read from standard input, one a line, so that a secret need not be
/// on the command line (where other users see it in the process list and the shell keeps it in
/// its history).
enum StandardInputURIs {
    /// `arguments` with a `-` replaced by the non-empty lines of standard input.
    static func expanding(_ arguments: [String]) throws -> [String] {
        guard arguments.contains("-") else { return arguments }
        guard arguments.filter({ $0 == "-" }).count == 1 else { throw CLIError("give - only once") }
        let lines = read()
        guard !lines.isEmpty else { throw CLIError("no otpauth:// URI on standard input") }
        return arguments.flatMap { $0 == "-" ? lines : [$0] }
    }

    /// The one URI of standard input, for `code --uri -`.
    static func single() throws -> String {
        let lines = read()
        guard lines.count == 1, let uri = lines.first else {
            throw CLIError(
                lines.isEmpty ? "no otpauth:// URI on standard input" : "give one otpauth:// URI on standard input, not \(lines.count)")
        }
        return uri
    }

    private static func read() -> [String] {
        let text = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
        return text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}
