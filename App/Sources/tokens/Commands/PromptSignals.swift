#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// While a passphrase prompt has echo off, a signal that ends tokens (Ctrl-C, Ctrl-\, a hang-up,
/// a kill) first puts the terminal's settings back, then ends it as the signal would have.
enum PromptSignals {
    static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]
    // Read by the signal handler, which can capture nothing: set before the handlers are
    // installed, cleared after they are removed, on the one thread that prompts.
    nonisolated(unsafe) fileprivate static var terminal: Int32 = -1
    nonisolated(unsafe) fileprivate static var settings = termios()

    /// Installs the handlers for the prompt on `tty`, whose settings before the prompt are `settings`.
    static func restoreOnSignal(tty: Int32, settings original: termios) {
        terminal = tty
        settings = original
        for number in signals { _ = signal(number, restoreTerminalAndEnd) }
    }

    /// Removes the handlers once the prompt has put the settings back itself.
    static func reset() {
        for number in signals { _ = signal(number, SIG_DFL) }
        terminal = -1
    }
}

/// The handler: only async-signal-safe calls (tcsetattr, signal, raise).
private func restoreTerminalAndEnd(_ number: Int32) {
    if PromptSignals.terminal >= 0 { tcsetattr(PromptSignals.terminal, TCSANOW, &PromptSignals.settings) }
    _ = signal(number, SIG_DFL)
    raise(number)
}
