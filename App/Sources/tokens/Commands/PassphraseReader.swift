import AppComposition
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a passphrase comes from: `--passphrase-file`, then an environment variable (for
/// scripts and tests; less safe: other processes of the user may read it), then the terminal,
/// without echo.
struct PassphraseReader {
    let file: String?
    let environmentVariable: String
    let environment: [String: String]

    /// A new passphrase shorter than this gets a warning (it is still accepted).
    static let recommendedLength = 12

    /// The passphrase; a new one (`confirm`) is asked twice on a terminal, and a short one is
    /// warned about, wherever it came from.
    func passphrase(prompt: String, confirm: Bool = false) throws -> Passphrase {
        let passphrase = try readPassphrase(prompt: prompt, confirm: confirm)
        if confirm, passphrase.length < Self.recommendedLength {
            CommandRunner.printError(
                "warning: the new passphrase has \(passphrase.length) characters; \(Self.recommendedLength) or more are much harder to guess")
        }
        return passphrase
    }

    /// The passphrase from the file or the environment variable; nil when neither is given.
    func givenPassphrase() throws -> Passphrase? {
        if let file { return try Self.fromFile(file) }
        if let value = environment[environmentVariable] {
            guard !value.isEmpty else { throw CLIError("\(environmentVariable) is empty") }
            return Passphrase(value)
        }
        return nil
    }

    private func readPassphrase(prompt: String, confirm: Bool) throws -> Passphrase {
        if let given = try givenPassphrase() { return given }
        let first = try Self.fromTerminal(prompt: prompt)
        guard confirm else { return first }
        let second = try Self.fromTerminal(prompt: "Repeat \(prompt.prefix(1).lowercased())\(prompt.dropFirst())")
        guard first.matches(second) else { throw CLIError("the passphrases do not match; nothing was changed") }
        return first
    }

    /// The passphrase as bytes, for other apps' exports (which take a String).
    func passphraseBytes(prompt: String, confirm: Bool = false) throws -> [UInt8] {
        if let file { return try Self.fileBytes(file) }
        if let value = environment[environmentVariable], !value.isEmpty { return Array(value.utf8) }
        let first = try Self.fromTerminal(prompt: prompt)
        if confirm {
            let second = try Self.fromTerminal(prompt: "Repeat \(prompt.prefix(1).lowercased())\(prompt.dropFirst())")
            guard first.matches(second) else { throw CLIError("the passwords do not match; nothing was written") }
        }
        return first.copyBytes()
    }

    /// A file's contents without one trailing newline. Warns when others may read the file.
    static func fileBytes(_ path: String) throws -> [UInt8] {
        var status = stat()
        if stat(path, &status) == 0, status.st_mode & 0o077 != 0 {
            CommandRunner.printError("warning: other users can read \(path); make it private with chmod 600")
        }
        guard var data = FileManager.default.contents(atPath: path) else {
            throw CLIError("cannot read passphrase file \(path)")
        }
        var bytes = Array(data)
        data.resetBytes(in: 0..<data.count)
        if bytes.last == UInt8(ascii: "\n") { bytes.removeLast() }
        if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        guard !bytes.isEmpty else { throw CLIError("passphrase file \(path) is empty") }
        return bytes
    }

    /// The file's contents without one trailing newline.
    static func fromFile(_ path: String) throws -> Passphrase {
        var bytes = try fileBytes(path)
        let passphrase = Passphrase(bytes)
        bytes.withUnsafeMutableBytes { _ = memset($0.baseAddress!, 0, $0.count) }
        return passphrase
    }

    /// The longest passphrase read from a terminal.
    static let maximumLength = 1024

    /// Reads a line from the controlling terminal with echo off.
    static func fromTerminal(prompt: String) throws -> Passphrase {
        let tty = open("/dev/tty", O_RDWR)
        guard tty >= 0 else {
            throw CLIError("no passphrase: run in a terminal, or use --passphrase-file or TOKENS_PASSPHRASE")
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
        defer { bytes.withUnsafeMutableBytes { _ = memset($0.baseAddress!, 0, $0.count) } }
        var byte: UInt8 = 0
        while read(tty, &byte, 1) == 1, byte != UInt8(ascii: "\n") {
            guard bytes.count < maximumLength else { throw CLIError("the passphrase is longer than \(maximumLength) bytes") }
            bytes.append(byte)
        }
        byte = 0
        if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        guard !bytes.isEmpty else { throw CLIError("the passphrase must not be empty") }
        return Passphrase(bytes)
    }
}
