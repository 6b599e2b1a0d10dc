import Foundation

/// How a child process ended and what it printed.
public struct ProcessResult: Sendable {
    public let status: Int32
    /// The child's peak resident memory (getrusage's maxrss), for the benchmarks.
    public let peakResidentBytes: Int?
    public let stdout: String
    public let stderr: String

    /// The non-empty lines of standard error.
    public var errorLines: [Substring] { stderr.split(separator: "\n") }
}

/// Runs programs for the architecture checks and the process tests.
public enum ProcessRunner {
    /// The path of the executable `name` on PATH, if there is one.
    public static func which(_ name: String) -> String? {
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let path = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }

    /// Runs `executable` (looked up on PATH when it is not a path) with `arguments` and `input`
    /// (none by default) on standard input.
    /// Output goes to temporary files, not pipes, so nothing blocks however much the child prints.
    /// The child starts as from a shell (see ChildProcess).
    /// A child still running after `timeout` seconds is killed, and that is an error: a hung
    /// child fails its test instead of stalling the whole run.
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil, input: String? = nil,
        timeout: TimeInterval = 600
    ) throws -> ProcessResult {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("process-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let outURL = directory.appendingPathComponent("out")
        let errURL = directory.appendingPathComponent("err")
        var inPath: String?
        if let input {
            let inURL = directory.appendingPathComponent("in")
            try Data(input.utf8).write(to: inURL)
            inPath = inURL.path
        }
        let child = try ChildProcess(
            executable: executable.contains("/") ? executable : "/usr/bin/env",
            arguments: executable.contains("/") ? arguments : [executable] + arguments,
            environment: environment, input: inPath, output: outURL.path, error: errURL.path)
        let deadline = Date().addingTimeInterval(timeout)
        while child.isRunning {
            guard Date() < deadline else {
                child.send(SIGKILL)
                child.wait()
                throw ProcessTimeout(command: ([executable] + arguments).joined(separator: " "), seconds: timeout)
            }
            usleep(2_000)
        }
        return ProcessResult(
            status: child.wait().status, peakResidentBytes: child.peakResidentBytes,
            stdout: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
    }
}

/// A child process that ran past its time limit and was killed.
public struct ProcessTimeout: Error, CustomStringConvertible {
    public let command: String
    public let seconds: TimeInterval
    public var description: String { "timed out after \(Int(seconds)) s and was killed: \(command)" }
}
