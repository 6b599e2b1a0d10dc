import AppComposition
import ArgumentParser
import Domain
import Foundation
import TerminalUI

/// `tokens import FILE|-`: bring accounts over from another authenticator, nothing lost silently.
struct Import: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import accounts from another app's export (the format is detected).",
        discussion: """
            Formats: \(ImportFormat.allCases.map(\.rawValue).joined(separator: ", ")).

            The report lists what is added, what duplicates an account you have (same secret, \
            type and parameters, with the account it duplicates), and what is dropped and why; \
            beyond a screenful it shows the first of each and counts the rest. Without --dry-run \
            everything is added in one transaction: all or nothing. An encrypted export's \
            password is asked on the terminal when --password-file and TOKENS_IMPORT_PASSWORD \
            are not given.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("The export file, or - for standard input.", valueName: "file"))
    var file: String

    @Option(help: ArgumentHelp("The file's format, when detection is not wanted.", valueName: "format"))
    var format: String?

    @Flag(help: "Show what would happen and write nothing.")
    var dryRun = false

    @Option(help: ArgumentHelp("Read the export's password from this file (encrypted exports).", valueName: "file"))
    var passwordFile: String?

    @Option(help: ArgumentHelp("What to do with duplicates: skip or keep.", valueName: "skip|keep"))
    var duplicates: String = DuplicatePolicy.skip.rawValue

    @Option(help: ArgumentHelp("The largest file to read, in MiB (real exports of thousands of accounts are a few MiB).", valueName: "MiB"))
    var maxSize: Int = 64

    @Flag(help: "Print only the summary line.")
    var quiet = false

    @Flag(help: "Print the whole report as JSON, for scripts.")
    var json = false

    func validate() throws {
        if let format, ImportFormat(rawValue: format.lowercased()) == nil {
            throw ValidationError("unknown format '\(format)': use \(ImportFormat.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        if DuplicatePolicy(rawValue: duplicates) == nil { throw ValidationError("--duplicates takes skip or keep") }
        if !(1...4_096).contains(maxSize) { throw ValidationError("--max-size takes 1 to 4096 (MiB)") }
        if quiet, json { throw ValidationError("--quiet and --json cannot be used together") }
    }

    func run() async throws {
        let data = try ImportInput.read(file, maxSize: maxSize)
        let given = try passwordFile.map { String(decoding: try PassphraseSource.fileBytes($0, warn: CommandRunner.printError), as: UTF8.self) }
            ?? ProcessInfo.processInfo.environment["TOKENS_IMPORT_PASSWORD"]
        let format = format.flatMap { ImportFormat(rawValue: $0.lowercased()) }
        let policy = DuplicatePolicy(rawValue: duplicates) ?? .skip
        let decoder = AppComposer.makeImportDecoder()
        // The file is decoded on another core while this one derives the vault's key: at 10 000
        // accounts each takes about a tenth of a second, and neither needs the other.
        let decoding = Task.detached { try decoder.decode(data, as: format, password: given) }
        let report = try await global.withContainer { container in
            let decoded: DecodedImport
            do {
                decoded = try await decoding.value
            } catch ImportError.passwordRequired(let encrypted) where given == nil {
                // An encrypted export and no password given: ask on the terminal, as export does.
                guard let typed = try? PassphraseReader.fromTerminal(prompt: "Password of the \(encrypted.displayName): ")
                else { throw ImportError.passwordRequired(encrypted) }
                var bytes = typed.copyBytes()
                defer { bytes.withUnsafeMutableBytes { _ = memset($0.baseAddress!, 0, $0.count) } }
                decoded = try decoder.decode(data, as: format, password: String(decoding: bytes, as: UTF8.self))
            }
            return try await container.makeImportAccountsUseCase().execute(decoded, duplicates: policy, dryRun: dryRun)
        }
        CLILog.logger.debug(
            "import (\(report.format.rawValue)): \(report.added.count) added, \(report.duplicates.count) duplicates, \(report.dropped.count) dropped\(report.isDryRun ? ", dry run" : "")")
        if json {
            StandardStreams.writeLine(try ImportReportText.json(report))
        } else {
            StandardStreams.write(ImportReportText.render(report, quiet: quiet))
        }
    }
}
