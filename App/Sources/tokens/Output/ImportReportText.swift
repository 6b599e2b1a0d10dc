import Domain
import Foundation
import TerminalUI

/// The import report: the summary line, then the added, duplicate, dropped and lost items. A
/// report longer than a screenful shows the first few of each kind and counts the rest
/// (`--json` lists every one); `--quiet` prints the summary line alone.
enum ImportReportText {
    /// Reports up to this many lines are printed whole.
    static let screenful = 40
    /// How many of each kind a longer report shows.
    static let shownPerKind = 10

    static func render(_ report: ImportReport, quiet: Bool = false) -> String {
        let verb = report.isDryRun ? "would add" : "added"
        let policy = report.duplicatePolicy == .skip ? "skipped" : "kept"
        var lines = [
            "\(report.format.displayName): \(verb) \(report.added.count), duplicates \(report.duplicates.count) (\(policy)), dropped \(report.dropped.count)"
        ]
        if !quiet {
            let kinds: [(String, [String])] = [
                (verb, report.added.map { "  + \($0.label)" }),
                ("duplicates", report.duplicates.map { "  = \($0.entry.label) (already there as \($0.existing): \(policy))" }),
                ("dropped", report.dropped.map { "  ! dropped \($0)" }),
                ("notices", report.notices.map { "  ~ \($0)" }),
            ]
            let whole = kinds.reduce(0) { $0 + $1.1.count } <= screenful
            for (name, items) in kinds {
                lines += whole ? items : Array(items.prefix(shownPerKind))
                if !whole, items.count > shownPerKind {
                    lines.append("  … and \(items.count - shownPerKind) more \(name) (--json lists every one)")
                }
            }
        }
        if report.isDryRun { lines.append("Dry run: nothing was written.") }
        // Labels and reasons quote the file: nothing in it reaches the terminal raw.
        return lines.map(TerminalText.escaped).joined(separator: "\n") + "\n"
    }

    /// The whole report for scripts (JSON escapes every control character).
    static func json(_ report: ImportReport) throws -> String {
        /// An entry; `existing` (for a duplicate) is the account it duplicates.
        struct Entry: Encodable {
            let issuer: String
            let account: String
            var existing: String?
        }
        struct Item: Encodable {
            let item: String
            let reason: String
        }
        struct Report: Encodable {
            let format: String
            let dryRun: Bool
            let duplicatePolicy: String
            let added: [Entry]
            let duplicates: [Entry]
            let dropped: [Item]
            let notices: [Item]
        }
        let value = Report(
            format: report.format.rawValue, dryRun: report.isDryRun, duplicatePolicy: report.duplicatePolicy.rawValue,
            added: report.added.map { Entry(issuer: $0.spec.issuer, account: $0.spec.name) },
            duplicates: report.duplicates.map {
                Entry(issuer: $0.entry.spec.issuer, account: $0.entry.spec.name, existing: $0.existing)
            },
            dropped: report.dropped.map { Item(item: $0.item, reason: $0.reason) },
            notices: report.notices.map { Item(item: $0.item, reason: $0.reason) })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
