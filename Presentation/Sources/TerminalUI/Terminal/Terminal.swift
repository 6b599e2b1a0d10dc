import Dispatch
import Foundation
import Presentation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The controlling terminal: raw mode, the alternate screen, its size, and a promise to put
/// everything back on exit, on SIGINT and on SIGTERM.
public final class Terminal: @unchecked Sendable {
    /// The terminal's settings before raw mode, for the signal handlers to restore.
    /// Written once before the handlers are installed; read only by them afterwards.
    nonisolated(unsafe) private static var original = termios()
    nonisolated(unsafe) private static var isRaw = false
    private var signalSources: [any DispatchSourceSignal] = []

    public init() {}

    /// True when both standard input and output are terminals.
    public static var isInteractive: Bool { isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1 }

    /// Columns and rows, or 80×24 when the size cannot be read.
    public var size: (width: Int, height: Int) {
        var window = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0 else { return (80, 24) }
        return (Int(window.ws_col), Int(window.ws_row))
    }

    /// Raw input, alternate screen, hidden cursor; and handlers that undo it on SIGINT/SIGTERM.
    public func enter(onResize: @escaping @Sendable () -> Void) {
        tcgetattr(STDIN_FILENO, &Self.original)
        var raw = Self.original
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN)
        raw.c_iflag &= ~tcflag_t(IXON | ICRNL)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw)
        Self.isRaw = true
        Self.output("\u{1B}[?1049h\u{1B}[?25l\u{1B}[H\u{1B}[2J")
        for signalNumber in [SIGINT, SIGTERM, SIGHUP] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler {
                Terminal.restore()
                exit(128 + signalNumber)
            }
            source.resume()
            signalSources.append(source)
        }
        signal(SIGWINCH, SIG_IGN)
        let resize = DispatchSource.makeSignalSource(signal: SIGWINCH, queue: .global())
        resize.setEventHandler(handler: onResize)
        resize.resume()
        signalSources.append(resize)
        atexit { Terminal.restore() }
    }

    /// Leaves the alternate screen and restores the terminal's original settings.
    public func leave() {
        for source in signalSources { source.cancel() }
        signalSources.removeAll()
        Self.restore()
    }

    private static func restore() {
        guard isRaw else { return }
        isRaw = false
        OSC52Clipboard.clearIfPending()
        output("\u{1B}[?25h\u{1B}[?1049l")
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &original)
    }

    /// Writes a whole frame in one call, so the screen never shows half of one.
    public static func output(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { buffer in
                write(STDOUT_FILENO, buffer.baseAddress! + offset, buffer.count - offset)
            }
            if written <= 0 { return }
            offset += written
        }
    }

    /// Key presses from standard input, read on a thread of their own.
    public func keys() -> AsyncStream<Key> {
        AsyncStream { continuation in
            let thread = Thread {
                var buffer = [UInt8](repeating: 0, count: 64)
                while true {
                    let count = read(STDIN_FILENO, &buffer, buffer.count)
                    if count <= 0 { break }
                    for key in Key.decodeAll(Array(buffer[0..<count])) { continuation.yield(key) }
                }
                continuation.finish()
            }
            thread.start()
        }
    }
}
