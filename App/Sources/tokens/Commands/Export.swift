import CommandLineKit
import Domain
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `tokens export --format F`: write every account in a format other apps read.
struct Export: TokensCommand {
    static let spec = CommandSpec(
        "export",
        abstract: "Export every account (otpauth, aegis, aegis-encrypted, google).",
        discussion: """
            Plaintext formats hold your secrets in the clear: a warning is printed, and files are \
            written 0600. What a format cannot hold is listed on standard error and left out.
            """,
        arguments: [
            .option("format", help: "otpauth, aegis, aegis-encrypted or google (required)."),
            .option("output", short: "o", value: "file", help: "Write to this file instead of standard output."),
            .option("password-file", value: "file", help: "The export's password (aegis-encrypted) from this file."),
            .flag("qr", help: "With --format google: draw each batch as a QR code for Google Authenticator to scan."),
            .flag("force", help: "Replace the --output file if it exists (without it, an existing file is refused)."),
        ])

    let global: GlobalOptionValues
    let format: String
    let output: String?
    let passwordFile: String?
    let qr: Bool
    let force: Bool

    init(_ arguments: ParsedArguments) throws {
        global = GlobalOptionValues(arguments)
        format = try arguments.required("format")
        output = arguments.string("output")
        passwordFile = arguments.string("password-file")
        qr = arguments.flag("qr")
        force = arguments.flag("force")
        if ExportFormat(rawValue: format.lowercased()) == nil {
            throw UsageError("unknown format '\(format)': use \(ExportFormat.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        if qr, format.lowercased() != ExportFormat.googleMigration.rawValue {
            throw UsageError("--qr goes with --format google")
        }
    }

    func run() async throws {
        guard let exportFormat = ExportFormat(rawValue: format.lowercased()) else { return }
        // Before any password or passphrase is asked: the file is refused at once.
        if let output, !force, FileManager.default.fileExists(atPath: output) {
            throw CLIError("\(output) exists: give --force to replace it")
        }
        var password: String?
        if exportFormat == .aegisEncrypted {
            let reader = PassphraseReader(
                file: passwordFile, environmentVariable: "TOKENS_EXPORT_PASSWORD", environment: ProcessEnvironment.variables)
            password = String(decoding: try reader.passwordBytes(prompt: "Password for the export: ", confirm: true), as: UTF8.self)
        }
        let exported = try await global.withContainer { container in
            try await container.makeExportAccountsUseCase().execute(format: exportFormat, password: password)
        }
        for item in exported.omitted { CommandRunner.printError("left out \(item)") }
        if exportFormat.isPlaintext {
            CommandRunner.printError("warning: this export holds your secrets in plaintext; keep it safe and delete it after use")
        }
        if qr {
            let batches = String(decoding: exported.data, as: UTF8.self).split(separator: "\n").map(String.init)
            for (index, batch) in batches.enumerated() {
                StandardStreams.writeLine(
                    "Batch \(index + 1) of \(batches.count): scan with Google Authenticator (Transfer accounts → Import)")
                StandardStreams.writeLine(try QRText.render(batch))
            }
            return
        }
        guard let output else {
            FileHandle.standardOutput.write(exported.data)
            return
        }
        try Self.writePrivately(exported.data, to: output, replacing: force)
    }

    /// Writes a new 0600 file (whatever the umask), complete or not at all: it replaces an old one
    /// only when `replacing`; otherwise a file that appeared meanwhile is kept and this fails.
    static func writePrivately(_ data: Data, to path: String, replacing: Bool) throws {
        let temporary = path + ".tokens-\(getpid())"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else { throw CLIError("cannot write \(path)") }
        let written = data.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        fsync(descriptor)
        close(descriptor)
        guard written == data.count else {
            unlink(temporary)
            throw CLIError("cannot write \(path)")
        }
        // link(2) never replaces: the no-replace publication; rename(2) replaces atomically.
        let published = replacing ? rename(temporary, path) : link(temporary, path)
        let failure = errno
        if !replacing || published != 0 { unlink(temporary) }
        guard published == 0 else {
            throw CLIError(failure == EEXIST ? "\(path) exists: give --force to replace it" : "cannot write \(path)")
        }
    }
}
