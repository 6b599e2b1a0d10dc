import Foundation

/// Another program `tokens` asks something (tmux's options, the clipboard's text): run to its
/// end with its output read on a thread of its own, bounded in time and in bytes kept, its
/// standard input and error closed.
enum HelperProgram {
    /// How a run ended.
    enum Outcome {
        /// It exited with `status`, having printed `output` (at most the limit).
        case exited(status: Int32, output: [UInt8])
        /// It printed more than the limit (the rest was read and dropped).
        case tooLong
        /// It did not end within the time: it was ended with SIGTERM.
        case hung
    }

    /// Runs `program` (a path) with `arguments`; nil when it cannot be started.
    static func run(_ program: String, _ arguments: [String], timeout: TimeInterval, limit: Int) -> Outcome? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let reader = BoundedReader(output.fileHandleForReading, limit: limit + 1)
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline { usleep(5_000) }
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
            return .hung
        }
        let bytes = reader.finish()
        return bytes.count > limit ? .tooLong : .exited(status: process.terminationStatus, output: bytes)
    }

    /// The first executable named `name` on `path` (a PATH value).
    static func find(_ name: String, path: String) -> String? {
        path.split(separator: ":").map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}

/// Reads a pipe on a thread of its own, keeping at most `limit` bytes (the rest is drained and
/// dropped, so the writer never blocks).
final class BoundedReader: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var bytes: [UInt8] = []

    init(_ handle: FileHandle, limit: Int) {
        Thread.detachNewThread { [self] in
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                if bytes.count < limit { bytes += chunk.prefix(limit - bytes.count) }
            }
            done.signal()
        }
    }

    /// The bytes read, once the writer closed the pipe.
    func finish() -> [UInt8] {
        done.wait()
        return bytes
    }
}
