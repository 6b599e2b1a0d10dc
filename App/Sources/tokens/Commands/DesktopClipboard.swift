import Foundation

/// `tokens add --clipboard`: the Key URIs on the desktop's clipboard, read through the session's
/// own tool (wl-paste on Wayland, xclip or xsel on X11), bounded in size and time. What the
/// clipboard holds is never printed: it may be a secret.
enum DesktopClipboard {
    /// The most the clipboard's text may hold (a Key URI is a few hundred bytes).
    static let limit = 64 * 1024
    /// How long a tool may take to answer.
    static let timeout: TimeInterval = 3

    /// A command that prints the clipboard's text, and one that lists what types it holds.
    struct Tool: Equatable {
        let program: String
        let text: [String]
        let types: [String]?
    }

    /// The tools of the session `environment` describes, in the order to try them.
    static func tools(environment: [String: String]) -> [Tool] {
        var tools: [Tool] = []
        if environment["WAYLAND_DISPLAY"]?.isEmpty == false {
            tools.append(Tool(program: "wl-paste", text: ["--no-newline", "--type", "text/plain"], types: ["--list-types"]))
        }
        if environment["DISPLAY"]?.isEmpty == false {
            tools.append(
                Tool(
                    program: "xclip", text: ["-selection", "clipboard", "-out"],
                    types: ["-selection", "clipboard", "-target", "TARGETS", "-out"]))
            tools.append(Tool(program: "xsel", text: ["--clipboard", "--output"], types: nil))
        }
        return tools
    }

    /// The otpauth:// URIs on the clipboard, one a line; a one-line error when there is no
    /// clipboard, no tool, a picture, nothing, or no URI.
    static func uris(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> [String] {
        let tools = tools(environment: environment)
        guard !tools.isEmpty else {
            throw CLIError("no desktop clipboard: neither WAYLAND_DISPLAY nor DISPLAY is set (over SSH, pipe the URI: tokens add -)")
        }
        let path = environment["PATH"] ?? "/usr/bin:/bin"
        guard let (tool, program) = tools.lazy.compactMap({ tool in executable(tool.program, path: path).map { (tool, $0) } }).first
        else {
            throw CLIError("no clipboard tool: install \(tools.map(\.program).joined(separator: " or ")) (wl-clipboard on Wayland)")
        }
        guard let text = try run(program, tool.text) else {
            let types = tool.types.flatMap { try? run(program, $0) } ?? ""
            if types.split(whereSeparator: \.isNewline).contains(where: { $0.hasPrefix("image/") }) {
                throw CLIError(
                    "the clipboard holds a picture: tokens reads QR codes from pictures not yet; decode it (zbarimg) and pipe the URI to tokens add -"
                )
            }
            throw CLIError("the clipboard holds no text (\(tool.program) gave none)")
        }
        let uris = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { $0.lowercased().hasPrefix("otpauth://") }
        guard !uris.isEmpty else { throw CLIError("the clipboard holds no otpauth:// URI") }
        return uris
    }

    /// The first executable named `name` on `path`.
    static func executable(_ name: String, path: String) -> String? {
        path.split(separator: ":").map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// What `program arguments` printed, if it exited 0 with some text within the time and size
    /// limits; nil when it printed nothing or failed; an error when it hung or printed too much.
    private static func run(_ program: String, _ arguments: [String]) throws -> String? {
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
            throw CLIError("the clipboard tool (\((program as NSString).lastPathComponent)) did not answer within \(Int(timeout)) s")
        }
        let bytes = reader.finish()
        guard bytes.count <= limit else { throw CLIError("the clipboard holds more than \(limit / 1024) KiB: no Key URI is that long") }
        guard process.terminationStatus == 0, !bytes.isEmpty else { return nil }
        return String(decoding: bytes, as: UTF8.self)
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
