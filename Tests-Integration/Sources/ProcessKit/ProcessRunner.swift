import Foundation

/// How a child process ended and what it printed.
public struct ProcessResult: Sendable {
    public let status: Int32
    /// The child's peak resident memory, when the run was asked to measure it.
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

    /// ImageMagick's own convert: /usr/bin's when there is one (a stand-in earlier on PATH may
    /// serve only some of its options), else the first on PATH.
    public static var imageMagickConvert: String? {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/convert") ? "/usr/bin/convert" : which("convert")
    }

    /// Runs `executable` (looked up on PATH when it is not a path) with `arguments` and `input`
    /// (none by default) on standard input.
    /// Output goes to temporary files, not pipes, so nothing blocks however much the child prints.
    /// The child starts as from a shell (see ChildProcess).
    /// A child still running after `timeout` seconds is killed, and that is an error: a hung
    /// child fails its test instead of stalling the whole run.
    /// `measuringPeakMemory` runs it under GNU time (`/usr/bin/time -f %M`), in a process group of
    /// its own: wait4's maxrss cannot serve, because a child that posix_spawn starts shares our
    /// memory until it executes, and Linux keeps our high-water mark as the child's (a spawned
    /// `/bin/true` reports the parent's hundreds of megabytes). GNU time forks, so its child's
    /// figure is the child's own.
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil, input: String? = nil,
        timeout: TimeInterval = 600, measuringPeakMemory: Bool = false
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
        let memoryURL = directory.appendingPathComponent("memory")
        var command = executable.contains("/") ? [executable] : ["/usr/bin/env", executable]
        command += arguments
        if measuringPeakMemory {
            guard FileManager.default.isExecutableFile(atPath: timeTool) else { throw MissingTool(name: timeTool) }
            command = [timeTool, "--quiet", "--format", "%M", "--output", memoryURL.path, "--"] + command
        }
        let child = try ChildProcess(
            executable: command[0], arguments: Array(command.dropFirst()), environment: environment, input: inPath,
            output: outURL.path, error: errURL.path, ownGroup: measuringPeakMemory)
        let deadline = Date().addingTimeInterval(timeout)
        while child.isRunning {
            guard Date() < deadline else {
                child.send(SIGKILL)
                child.wait()
                throw ProcessTimeout(command: ([executable] + arguments).joined(separator: " "), seconds: timeout)
            }
            usleep(2_000)
        }
        let peak = measuringPeakMemory ? try Self.kilobytes(in: memoryURL).map { $0 * 1024 } : nil
        return ProcessResult(
            status: child.wait().status, peakResidentBytes: peak,
            stdout: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
    }
}

extension ProcessRunner {
    /// GNU time (Debian's `time` package, which `make deps-test` installs).
    static let timeTool = "/usr/bin/time"

    /// The number on the last line GNU time wrote (its %M, in kilobytes).
    static func kilobytes(in file: URL) throws -> Int? {
        let text = String(decoding: try Data(contentsOf: file), as: UTF8.self)
        return text.split(separator: "\n").last.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
    }
}

/// A program a run needs is not installed.
public struct MissingTool: Error, CustomStringConvertible {
    public let name: String
    public var description: String { "\(name) is not installed (make deps-test installs it)" }
}

/// A child process that ran past its time limit and was killed.
public struct ProcessTimeout: Error, CustomStringConvertible {
    public let command: String
    public let seconds: TimeInterval
    public var description: String { "timed out after \(Int(seconds)) s and was killed: \(command)" }
}
