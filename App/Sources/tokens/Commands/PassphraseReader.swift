import AppComposition
import Domain
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a passphrase comes from: `--passphrase-file`, then an environment variable (both
/// read by AppComposition's `PassphraseSource`), then the terminal, without echo.
struct PassphraseReader {
    let source: PassphraseSource
    let environmentVariable: String

    init(file: String?, environmentVariable: String, environment: [String: String]) {
        self.environmentVariable = environmentVariable
        source = PassphraseSource(
            file: file, variable: environmentVariable, environment: environment, warn: { CommandRunner.printError($0) })
    }

    /// A new passphrase shorter than this gets a warning (it is still accepted).
    static let recommendedLength = 12

    /// The passphrase; a new one (`confirm`) is asked twice on a terminal, and a short one is
    /// warned about, wherever it came from.
    /// `otherwise`: where else it may come from, named when there is no terminal to ask on.
    func passphrase(prompt: String, confirm: Bool = false, otherwise: String? = nil) throws -> Passphrase {
        let passphrase = try readPassphrase(prompt: prompt, confirm: confirm, otherwise: otherwise)
        if confirm, passphrase.length < Self.recommendedLength {
            CommandRunner.printError(
                "warning: the new passphrase has \(passphrase.length) characters; \(Self.recommendedLength) or more are much harder to guess"
            )
        }
        return passphrase
    }

    /// The passphrase from the file or the environment variable; nil when neither is given.
    func givenPassphrase() throws -> Passphrase? { try source.given() }

    private func readPassphrase(prompt: String, confirm: Bool, otherwise: String?) throws -> Passphrase {
        if let given = try givenPassphrase() { return given }
        let first = try otherwise.map { try Self.fromTerminal(prompt: prompt, otherwise: $0) } ?? Self.fromTerminal(prompt: prompt)
        guard confirm else { return first }
        let second = try Self.fromTerminal(prompt: "Repeat \(prompt.prefix(1).lowercased())\(prompt.dropFirst())")
        guard first.matches(second) else { throw CLIError("the passphrases do not match; nothing was changed") }
        return first
    }

    /// The password of another app's file as bytes (its formats take a String); without a
    /// terminal, the error names `fileOption` and this reader's variable, not the vault's.
    func passwordBytes(prompt: String, fileOption: String = "--password-file", confirm: Bool = false) throws -> [UInt8] {
        if let given = try source.givenBytes() { return given }
        let otherwise = "\(fileOption) or \(environmentVariable)"
        let first = try Self.fromTerminal(prompt: prompt, noun: "password", otherwise: otherwise)
        if confirm {
            let second = try Self.fromTerminal(
                prompt: "Repeat \(prompt.prefix(1).lowercased())\(prompt.dropFirst())", noun: "password", otherwise: otherwise)
            guard first.matches(second) else { throw CLIError("the passwords do not match; nothing was written") }
        }
        return first.copyBytes()
    }

    /// The longest passphrase read from a terminal.
    static let maximumLength = 1024

    /// Reads a line from the controlling terminal with echo off: a passphrase, or another secret
    /// (`noun` names it in the errors; `otherwise`, where else it may come from).
    static func fromTerminal(
        prompt: String, noun: String = "passphrase", otherwise: String? = "--passphrase-file or TOKENS_PASSPHRASE"
    ) throws -> Passphrase {
        let tty = open("/dev/tty", O_RDWR)
        guard tty >= 0 else {
            throw CLIError(otherwise.map { "no \(noun): run in a terminal, or use \($0)" } ?? "no \(noun): no terminal")
        }
        defer { close(tty) }
        var original = termios()
        tcgetattr(tty, &original)
        var silent = original
        silent.c_lflag &= ~tcflag_t(ECHO)
        silent.c_lflag |= tcflag_t(ECHONL)
        // A signal at the prompt (Ctrl-C) must not leave the terminal without echo.
        PromptSignals.restoreOnSignal(tty: tty, settings: original)
        tcsetattr(tty, TCSAFLUSH, &silent)
        defer {
            tcsetattr(tty, TCSAFLUSH, &original)
            PromptSignals.reset()
        }
        _ = prompt.withCString { write(tty, $0, strlen($0)) }
        // One buffer, never grown (growing would leave copies of the passphrase in freed memory).
        var bytes: [UInt8] = []
        bytes.reserveCapacity(maximumLength + 1)
        defer { bytes.wipe() }
        var byte: UInt8 = 0
        while read(tty, &byte, 1) == 1, byte != UInt8(ascii: "\n") {
            guard bytes.count < maximumLength else { throw CLIError("the \(noun) is longer than \(maximumLength) bytes") }
            bytes.append(byte)
        }
        byte = 0
        if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        guard !bytes.isEmpty else { throw CLIError("the \(noun) must not be empty") }
        return Passphrase(bytes)
    }
}
