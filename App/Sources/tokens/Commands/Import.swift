import AppComposition
import CommandLineKit
import Domain
import Foundation
import TerminalUI

/// `tokens import FILE|-`: bring accounts over from another authenticator, nothing lost silently.
struct Import: TokensCommand {
    static let spec = CommandSpec(
        "import",
        abstract: "Import accounts from another app's export (the format is detected).",
        discussion: """
            Formats: \(formatNames).

            The report lists what is added, what duplicates an account you have (same secret, \
            type and parameters, with the account it duplicates), and what is dropped and why; \
            beyond a screenful it shows the first of each and counts the rest. Without --dry-run \
            everything is added in one transaction: all or nothing. An encrypted export's \
            password is asked on the terminal when --password-file and TOKENS_IMPORT_PASSWORD \
            are not given.
            """,
        arguments: [
            .positional("file", help: "The export file, or - for standard input."),
            .option("format", help: "The file's format, when detection is not wanted."),
            .flag("dry-run", help: "Show what would happen and write nothing."),
            .option("password-file", value: "file", help: "Read the export's password from this file (encrypted exports)."),
            .option("duplicates", value: "skip|keep", help: "What to do with duplicates: skip or keep (default: skip)."),
            .option(
                "max-size", value: "MiB",
                help: "The largest file to read, in MiB (default: 64; real exports of thousands of accounts are a few MiB)."),
            .flag("quiet", help: "Print only the summary line."),
            .flag("json", help: "Print the whole report as JSON, for scripts."),
        ])

    /// The formats' names, comma-separated. Built by a loop: `joined(separator:)` in a spec
    /// made the runtime check generic requirements against every conformance, at every start.
    private static var formatNames: String {
        var names = ""
        for format in ImportFormat.allCases { names += (names.isEmpty ? "" : ", ") + format.rawValue }
        return names
    }

    let global: GlobalOptionValues
    let file: String
    let format: String?
    let dryRun: Bool
    let passwordFile: String?
    let duplicates: String
    let maxSize: Int
    let quiet: Bool
    let json: Bool

    init(_ arguments: ParsedArguments) throws {
        global = GlobalOptionValues(arguments)
        file = arguments.string("file") ?? ""
        format = arguments.string("format")
        dryRun = arguments.flag("dry-run")
        passwordFile = arguments.string("password-file")
        duplicates = arguments.string("duplicates") ?? DuplicatePolicy.skip.rawValue
        maxSize = try arguments.integer("max-size") ?? 64
        quiet = arguments.flag("quiet")
        json = arguments.flag("json")
        if let format, ImportFormat(rawValue: format.lowercased()) == nil {
            throw UsageError("unknown format '\(format)': use \(ImportFormat.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        if DuplicatePolicy(rawValue: duplicates) == nil { throw UsageError("--duplicates takes skip or keep") }
        if !(1...4_096).contains(maxSize) { throw UsageError("--max-size takes 1 to 4096 (MiB)") }
        if quiet, json { throw UsageError("--quiet and --json cannot be used together") }
    }

    func run() async throws {
        let data = try ImportInput.read(file, maxSize: maxSize)
        let given =
            try passwordFile.map { String(decoding: try PassphraseSource.fileBytes($0, warn: CommandRunner.printError), as: UTF8.self) }
            ?? ProcessEnvironment.variables["TOKENS_IMPORT_PASSWORD"]
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
                defer { bytes.wipe() }
                decoded = try decoder.decode(data, as: format, password: String(decoding: bytes, as: UTF8.self))
            }
            return try await container.makeImportAccountsUseCase().execute(decoded, duplicates: policy, dryRun: dryRun)
        }
        CLILog.logger.debug(
            "import (\(report.format.rawValue)): \(report.added.count) added, \(report.duplicates.count) duplicates, \(report.dropped.count) dropped\(report.isDryRun ? ", dry run" : "")"
        )
        if json {
            StandardStreams.writeLine(try ImportReportText.json(report))
        } else {
            StandardStreams.write(ImportReportText.render(report, quiet: quiet))
        }
    }
}
