import Foundation

extension ServerProcess {
    /// `body`; when it throws, the same error with the end of the server's log beside it, so a
    /// failed test says what the server was doing (the log is removed with the process's folder).
    public func withLogOnFailure<T>(_ context: String, lines: Int = 60, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch {
            throw ServerLoggedError(context: context, underlying: error, logTail: Self.tail(of: errorLog, lines: lines))
        }
    }

    /// The last `lines` lines of `log`, each cut to 400 characters.
    static func tail(of log: String, lines: Int) -> String {
        log.split(separator: "\n").suffix(lines).map { $0.count > 400 ? $0.prefix(400) + "…" : $0 }.joined(separator: "\n")
    }
}

/// An error a test met (in `context`) while talking to the server, with the end of the server's log.
public struct ServerLoggedError: Error, CustomStringConvertible {
    public let context: String
    public let underlying: any Error
    public let logTail: String

    public var description: String { "\(context): \(underlying)\n--- the end of tokens-server's log ---\n\(logTail)" }
}
