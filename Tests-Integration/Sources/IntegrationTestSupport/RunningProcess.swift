import Foundation

/// A `tokens` child process left running, for tests that kill it part-way through its work.
/// Standard output and standard error go to files, so the test can follow the child's progress
/// line by line while it runs.
public final class RunningProcess {
    public let child: ChildProcess
    private let directory: URL
    private let outURL: URL
    private let errURL: URL

    /// Starts `tokens` with `arguments` in `home` and `environment`.
    public init(tokens arguments: [String], home: URL, environment: [String: String]) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("running-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        outURL = directory.appendingPathComponent("out")
        errURL = directory.appendingPathComponent("err")
        child = try ChildProcess(
            executable: TokensProcess.binary, arguments: arguments,
            environment: TokensProcess.environment(home: home, extra: environment),
            output: outURL.path, error: errURL.path)
    }

    /// How far the child got: the matching lines seen and the time between the first and the last.
    public struct Progress: Sendable {
        /// How many lines with the prefix the child had printed.
        public let lines: Int
        /// Seconds from the first matching line to the last (0 for fewer than two lines).
        public let secondsFromFirstToLast: Double

        /// The mean time one line took after the first, when at least two were seen.
        public var secondsPerLine: Double? {
            lines >= 2 ? secondsFromFirstToLast / Double(lines - 1) : nil
        }
    }

    /// Waits until the child has printed `count` lines that start with `prefix`, polling its
    /// output every millisecond. Returns early, with fewer lines, if the child exits first or
    /// `timeout` seconds pass: the caller checks `lines`.
    public func waitForLines(prefix: String, count: Int, timeout: TimeInterval) -> Progress {
        let deadline = Date().addingTimeInterval(timeout)
        var first: Date?
        var last = Date()
        var seen = 0
        while true {
            let lines = linesOfOutput(prefix: prefix).count
            if lines > seen {
                last = Date()
                if first == nil { first = last }
                seen = lines
            }
            if seen >= count || !child.isRunning || Date() >= deadline { break }
            usleep(1_000)
        }
        return Progress(lines: seen, secondsFromFirstToLast: first.map { last.timeIntervalSince($0) } ?? 0)
    }

    /// Sends SIGKILL and waits for the process to end. Returns true when the signal ended it,
    /// false when it had already exited by itself.
    @discardableResult
    public func kill() -> Bool {
        child.send(SIGKILL)
        return child.wait() == .signalled(SIGKILL)
    }

    /// What the process printed so far on standard output.
    public var output: String {
        (try? String(contentsOf: outURL, encoding: .utf8)) ?? ""
    }

    /// What the process printed so far on standard error.
    public var errorOutput: String {
        (try? String(contentsOf: errURL, encoding: .utf8)) ?? ""
    }

    /// The complete lines of standard output that start with `prefix`, in order.
    public func linesOfOutput(prefix: String) -> [Substring] {
        // Only whole lines: the last one may still be being written.
        let text = output
        let complete = text.hasSuffix("\n") ? Substring(text) : text[..<(text.lastIndex(of: "\n") ?? text.startIndex)]
        return complete.split(separator: "\n").filter { $0.hasPrefix(prefix) }
    }

    deinit {
        child.send(SIGKILL)
        child.wait()
        try? FileManager.default.removeItem(at: directory)
    }
}
