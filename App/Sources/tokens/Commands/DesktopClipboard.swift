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
    struct Tool {
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
        guard let (tool, program) = tools.lazy.compactMap({ tool in HelperProgram.find(tool.program, path: path).map { (tool, $0) } }).first
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

    /// What `program arguments` printed, if it exited 0 with some text within the time and size
    /// limits; nil when it printed nothing or failed; an error when it hung or printed too much.
    private static func run(_ program: String, _ arguments: [String]) throws -> String? {
        switch HelperProgram.run(program, arguments, timeout: timeout, limit: limit) {
        case .exited(0, let output)? where !output.isEmpty:
            return String(decoding: output, as: UTF8.self)
        case .hung?:
            throw CLIError("the clipboard tool (\((program as NSString).lastPathComponent)) did not answer within \(Int(timeout)) s")
        case .tooLong?:
            throw CLIError("the clipboard holds more than \(limit / 1024) KiB: no Key URI is that long")
        case .exited?, nil:
            return nil
        }
    }
}
