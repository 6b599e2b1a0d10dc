import Domain
import Foundation

/// `tokens add --clipboard`: the Key URIs on the desktop's clipboard, read through the session's
/// own tool (wl-paste on Wayland, xclip or xsel on X11), bounded in size and time: its text, or
/// the QR codes of the picture it holds (PNG or JPEG, a screenshot copied). What the clipboard
/// holds is never printed: it may be a secret.
enum DesktopClipboard {
    /// The most the clipboard's text may hold (a Key URI is a few hundred bytes).
    static let limit = 64 * 1024
    /// The most a picture on it may hold (a screenshot of an 8K screen is a few MiB).
    static let pictureLimit = 32 * 1024 * 1024
    /// The kinds of picture read, in the order asked for.
    static let pictureTypes = ["image/png", "image/jpeg"]
    /// How long a tool may take to answer.
    static let timeout: TimeInterval = 3

    /// A command that prints the clipboard's text, one that lists what types it holds, and one
    /// that prints its content of a given type (nil: the tool reads text only).
    struct Tool {
        let program: String
        let text: [String]
        let types: [String]?
        var content: (@Sendable (String) -> [String])? = nil
    }

    /// The tools of the session `environment` describes, in the order to try them.
    static func tools(environment: [String: String]) -> [Tool] {
        var tools: [Tool] = []
        if environment["WAYLAND_DISPLAY"]?.isEmpty == false {
            tools.append(
                Tool(
                    program: "wl-paste", text: ["--no-newline", "--type", "text/plain"], types: ["--list-types"],
                    content: { ["--type", $0] }))
        }
        if environment["DISPLAY"]?.isEmpty == false {
            tools.append(
                Tool(
                    program: "xclip", text: ["-selection", "clipboard", "-out"],
                    types: ["-selection", "clipboard", "-target", "TARGETS", "-out"],
                    content: { ["-selection", "clipboard", "-target", $0, "-out"] }))
            tools.append(Tool(program: "xsel", text: ["--clipboard", "--output"], types: nil))
        }
        return tools
    }

    /// The otpauth:// URIs on the clipboard, one a line, or in the QR codes of its picture
    /// (`reader`); a one-line error when there is no clipboard, no tool, nothing, or no URI.
    static func uris(
        reader: any QRCodeReader, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> [String] {
        let tools = tools(environment: environment)
        guard !tools.isEmpty else {
            throw CLIError("no desktop clipboard: neither WAYLAND_DISPLAY nor DISPLAY is set (over SSH, pipe the URI: tokens add -)")
        }
        let path = environment["PATH"] ?? "/usr/bin:/bin"
        guard let (tool, program) = tools.lazy.compactMap({ tool in HelperProgram.find(tool.program, path: path).map { (tool, $0) } }).first
        else {
            throw CLIError("no clipboard tool: install \(tools.map(\.program).joined(separator: " or ")) (wl-clipboard on Wayland)")
        }
        let text: String
        if let given = try run(program, tool.text) {
            text = given
        } else {
            let types = tool.types.flatMap { try? run(program, $0) }?.split(whereSeparator: \.isNewline).map(String.init) ?? []
            guard types.contains(where: { $0.hasPrefix("image/") }) else {
                throw CLIError("the clipboard holds no text (\(tool.program) gave none)")
            }
            guard let content = tool.content, let type = pictureTypes.first(where: types.contains) else {
                throw CLIError(
                    tool.content == nil
                        ? "the clipboard holds a picture, which \(tool.program) cannot read: install xclip"
                        : "the clipboard holds a picture that is not PNG or JPEG")
            }
            guard
                let picture = try run(
                    program, content(type), limit: pictureLimit,
                    tooLong: "the clipboard's picture is larger than \(pictureLimit / 1_048_576) MiB")
            else { throw CLIError("the clipboard's picture could not be read") }
            text = try PictureURIs.texts(in: picture, named: "the clipboard's picture", reader: reader).joined(separator: "\n")
        }
        let uris = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { $0.lowercased().hasPrefix("otpauth://") }
        guard !uris.isEmpty else { throw CLIError("the clipboard holds no otpauth:// URI") }
        return uris
    }

    /// What `program arguments` printed, if it exited 0 with some text within the time and size
    /// limits; nil when it printed nothing or failed; an error when it hung or printed too much.
    private static func run(_ program: String, _ arguments: [String]) throws -> String? {
        try run(program, arguments, limit: limit, tooLong: "the clipboard holds more than \(limit / 1024) KiB: no Key URI is that long")
            .map { String(decoding: $0, as: UTF8.self) }
    }

    /// The bytes `program arguments` printed, as `run` above, within `limit` bytes (`tooLong`
    /// the error past it).
    private static func run(_ program: String, _ arguments: [String], limit: Int, tooLong: String) throws -> Data? {
        switch HelperProgram.run(program, arguments, timeout: timeout, limit: limit) {
        case .exited(0, let output)? where !output.isEmpty:
            return Data(output)
        case .hung?:
            throw CLIError("the clipboard tool (\((program as NSString).lastPathComponent)) did not answer within \(Int(timeout)) s")
        case .tooLong?:
            throw CLIError(tooLong)
        case .exited?, nil:
            return nil
        }
    }
}
