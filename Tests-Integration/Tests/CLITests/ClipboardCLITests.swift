import Foundation
import IntegrationTestSupport
import Testing

/// `tokens add --clipboard` with the session's clipboard tool stood in for by a script on PATH:
/// wl-paste under Wayland, xclip under X11; each failure one line, and the clipboard's text
/// (a secret) never printed.
@Suite("Adding from the desktop clipboard")
struct ClipboardCLITests {
    static let uri = "otpauth://totp/Clipped:me@example.com?secret=MFRGGZDFMZTWQ2LKNNWG23TPOBYXE43U"

    /// Runs `tokens add --clipboard` in DEV with `tools` (name → shell script body) as the only
    /// programs on PATH besides the system's, and `session` (WAYLAND_DISPLAY or DISPLAY).
    static func add(tools: [String: String], session: [String: String]) throws -> ProcessResult {
        try add("--clipboard", tools: tools, session: session)
    }

    /// Runs `tokens add FLAG` (`--clipboard`, or `--screen` for the pictures' suite) the same way.
    static func add(_ flag: String, tools: [String: String], session: [String: String]) throws -> ProcessResult {
        let home = try TemporaryHome()
        let bin = home.url.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        for (name, body) in tools {
            let path = bin.appendingPathComponent(name).path
            try Data("#!/bin/sh\n\(body)\n".utf8).write(to: URL(fileURLWithPath: path))
            chmod(path, 0o755)
        }
        // The system's folders without any clipboard tool a machine may have installed.
        return try TokensProcess.run(
            ["add", flag, "--phase", "dev"], home: home.url,
            environment: session.merging(["PATH": bin.path + ":/nonexistent-bin"]) { $1 })
    }

    @Test("Wayland: the URI wl-paste gives is added, and neither it nor its secret is printed")
    func wayland() throws {
        let added = try Self.add(
            tools: ["wl-paste": "[ \"$3\" = text/plain ] && printf '  \(Self.uri)  \\n' || exit 1"],
            session: ["WAYLAND_DISPLAY": "wayland-9"])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout.hasPrefix("Added Clipped"), "\(added.stdout)")
        #expect(!(added.stdout + added.stderr).contains("GEZDGNBVGY3TQOJQ"))
    }

    @Test("X11: xclip's text is read; lines that are no Key URI are left out")
    func x11() throws {
        let added = try Self.add(tools: ["xclip": "printf 'note\\n\(Self.uri)\\n'"], session: ["DISPLAY": ":9"])
        #expect(added.status == 0 && added.stdout.hasPrefix("Added Clipped"), "\(added.stdout)\(added.stderr)")
    }

    @Test("each failure is one line: no session, no tool, a picture that cannot be fetched, no text, no URI, a tool that hangs")
    func failures() throws {
        let cases: [(tools: [String: String], session: [String: String], says: String)] = [
            ([:], [:], "tokens: no desktop clipboard: neither WAYLAND_DISPLAY nor DISPLAY is set"),
            ([:], ["DISPLAY": ":9"], "tokens: no clipboard tool: install xclip or xsel"),
            (
                ["wl-paste": "[ \"$1\" = --list-types ] && printf 'image/png\\n' || exit 1"], ["WAYLAND_DISPLAY": "wayland-9"],
                "tokens: the clipboard's picture could not be read"
            ),
            (
                ["xsel": "[ \"$1\" = --clipboard ] && exit 1"], ["DISPLAY": ":9"],
                "tokens: the clipboard holds no text (xsel gave none)"
            ),
            (["xclip": "printf 'hello\\n'"], ["DISPLAY": ":9"], "tokens: the clipboard holds no otpauth:// URI"),
            (
                ["wl-paste": "exec /bin/sleep 30"], ["WAYLAND_DISPLAY": "wayland-9"],
                "tokens: the clipboard tool (wl-paste) did not answer within 3 s"
            ),
        ]
        for (tools, session, says) in cases {
            let failed = try Self.add(tools: tools, session: session)
            #expect(failed.status != 0 && failed.stdout.isEmpty)
            #expect(failed.errorLines.count == 1 && failed.stderr.hasPrefix(says), "\(failed.stderr)")
        }
    }
}
