import Foundation

/// `tokens` in a real terminal: a detached tmux session, keys sent with send-keys and the
/// screen read with capture-pane. Each session has a tmux server of its own (`-L name`), so
/// paste buffers and options never leak between tests running in parallel, or from another run.
public final class TmuxSession {
    /// Whether tmux is installed (`make test` installs it; a bare `swift test` may not have it).
    public static let isAvailable: Bool = (try? ProcessRunner.run("tmux", ["-V"]).status) == 0

    public let name = "tokens-test-\(UUID().uuidString.prefix(8))"

    /// Starts `tokens arguments` in a `width`×`height` terminal with `environment`.
    public init(tokens arguments: [String], home: URL, environment: [String: String] = [:], width: Int = 80, height: Int = 24) throws {
        let env = TokensProcess.environment(home: home, extra: environment.merging(["TERM": "xterm-256color"]) { $1 })
        let assignments = env.map { "\($0.key)=\(Self.quote($0.value))" }.joined(separator: " ")
        let command =
            "env -i \(assignments) \(Self.quote(TokensProcess.binary)) \(arguments.map(Self.quote).joined(separator: " ")); echo \"[exit $?]\"; sleep 600"
        // The tmux server outlives this call and would inherit Foundation's process-watching
        // descriptors (and so hang the wait for the client): close every inherited one first.
        let closeInherited =
            #"for fd in /proc/self/fd/*; do n=${fd##*/}; [ "$n" -gt 2 ] && eval "exec $n>&-"; done 2>/dev/null; exec tmux "$@""#
        let result = try ProcessRunner.run(
            "bash",
            ["-c", closeInherited, "tmux", "-L", name, "new-session", "-d", "-s", name, "-x", String(width), "-y", String(height), command])
        guard result.status == 0 else { throw TmuxError(message: result.stderr) }
        // Let OSC 52 (the app's copy) reach tmux's paste buffer, where tests can read it.
        _ = try tmux(["set-option", "-s", "set-clipboard", "on"])
    }

    /// tmux's newest paste buffer: what the app last copied with OSC 52.
    public func pasteBuffer() throws -> String {
        try tmux(["show-buffer"]).stdout
    }

    /// The samples of every paste buffer this session's tmux server holds.
    public func pasteBufferSamples() throws -> String {
        try tmux(["list-buffers", "-F", "#{buffer_sample}"]).stdout
    }

    /// The pane's title, which an OSC 0 or OSC 2 sequence would set.
    public func paneTitle() throws -> String {
        try tmux(["display-message", "-p", "-t", name, "#{pane_title}"]).stdout
    }

    /// The pids of the processes the pane's shell started (`tokens`, then `sleep`).
    public func paneChildren() throws -> [Int32] {
        let shell = try tmux(["display-message", "-p", "-t", name, "#{pane_pid}"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let children = (try? String(contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8)) ?? ""
        return children.split(separator: " ").compactMap { Int32($0) }
    }

    /// Types text (no Enter).
    public func type(_ text: String) throws {
        _ = try tmux(["send-keys", "-t", name, "-l", text])
    }

    /// Presses keys by tmux name: "Enter", "Escape", "Down", "C-c"…
    public func press(_ keys: String...) throws {
        _ = try tmux(["send-keys", "-t", name] + keys)
    }

    /// The visible screen.
    public func screen() throws -> String {
        try tmux(["capture-pane", "-p", "-t", name]).stdout
    }

    /// Waits until the screen contains `text`; returns the screen (which may lack it on timeout).
    @discardableResult
    public func waitFor(_ text: String, timeout: TimeInterval = 10) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var current = try screen()
        while !current.contains(text), Date() < deadline {
            usleep(50_000)
            current = try screen()
        }
        return current
    }

    /// Runs a tmux command against this session's own server.
    private func tmux(_ arguments: [String]) throws -> ProcessResult {
        try ProcessRunner.run("tmux", ["-L", name] + arguments)
    }

    deinit { _ = try? tmux(["kill-server"]) }

    static func quote(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}

/// tmux could not start.
public struct TmuxError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { "tmux: \(message)" }
}
