import ArgumentParser
import Domain
import Foundation
import TerminalUI

/// `tokens import FILE|-`: bring accounts over from another authenticator, nothing lost silently.
struct Import: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Import accounts from another app's export (the format is detected).",
        discussion: """
            Formats: \(ImportFormat.allCases.map(\.rawValue).joined(separator: ", ")).
            The report lists what is added, what duplicates an account you have (same secret and
            type), and what is dropped and why. Without --dry-run everything is added in one
            transaction: all or nothing.
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

    func validate() throws {
        if let format, ImportFormat(rawValue: format.lowercased()) == nil {
            throw ValidationError("unknown format '\(format)': use \(ImportFormat.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        if DuplicatePolicy(rawValue: duplicates) == nil { throw ValidationError("--duplicates takes skip or keep") }
        if !(1...4_096).contains(maxSize) { throw ValidationError("--max-size takes 1 to 4096 (MiB)") }
    }

    func run() async throws {
        let data = try readInput()
        let password = try passwordFile.map { String(decoding: try PassphraseReader.fileBytes($0), as: UTF8.self) }
            ?? ProcessInfo.processInfo.environment["TOKENS_IMPORT_PASSWORD"]
        let report = try await global.withContainer { container in
            try await container.makeImportAccountsUseCase().execute(
                data, format: format.flatMap { ImportFormat(rawValue: $0.lowercased()) }, password: password,
                duplicates: DuplicatePolicy(rawValue: duplicates) ?? .skip, dryRun: dryRun)
        }
        CLILog.logger.debug(
            "import (\(report.format.rawValue)): \(report.added.count) added, \(report.duplicates.count) duplicates, \(report.dropped.count) dropped\(report.isDryRun ? ", dry run" : "")")
        print(ImportReportText.render(report), terminator: "")
    }

    /// The file or standard input, refused before it is read whole when it is over --max-size.
    private func readInput() throws -> Data {
        let limit = maxSize * 1_048_576
        let tooLarge = CLIError("\(file == "-" ? "standard input" : file) is larger than \(maxSize) MiB, the import limit (raise it with --max-size)")
        guard file != "-" else {
            var data = Data()
            while let chunk = try FileHandle.standardInput.read(upToCount: 1 << 20), !chunk.isEmpty {
                data.append(chunk)
                if data.count > limit { throw tooLarge }
            }
            return data
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? nil
        if let size, size > limit { throw tooLarge }
        guard let data = FileManager.default.contents(atPath: file) else { throw CLIError("cannot read \(file)") }
        guard data.count <= limit else { throw tooLarge }
        return data
    }
}

/// The import report as text: counts, then every added, duplicate, dropped and lost item.
enum ImportReportText {
    static func render(_ report: ImportReport) -> String {
        var lines: [String] = []
        let verb = report.isDryRun ? "Would add" : "Added"
        lines.append("\(report.format.displayName): \(verb.lowercased()) \(report.added.count), duplicates \(report.duplicates.count) (\(report.duplicatePolicy == .skip ? "skipped" : "kept")), dropped \(report.dropped.count)")
        lines += report.added.map { "  \(verb.lowercased().hasPrefix("would") ? "+" : "+") \($0.label)" }
        lines += report.duplicates.map { "  = \($0.label) (already there: \(report.duplicatePolicy == .skip ? "skipped" : "kept"))" }
        lines += report.dropped.map { "  ! dropped \($0)" }
        lines += report.notices.map { "  ~ \($0)" }
        if report.isDryRun { lines.append("Dry run: nothing was written.") }
        // Labels and reasons quote the file: nothing in it reaches the terminal raw.
        return lines.map(TerminalText.escaped).joined(separator: "\n") + "\n"
    }
}
