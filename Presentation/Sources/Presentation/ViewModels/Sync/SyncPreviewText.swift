import Domain
import Foundation

/// A sync's dry run in the user's words: what it would receive, send and merge, an account per
/// line ("Issuer (name) [id]: the fields"), and what it found. Text that came from other machines
/// goes through `escape` (the terminal's escaping) before it is shown; secrets are only named.
public enum SyncPreviewText {
    /// The lines for `preview`, after a heading line of the caller's.
    public static func lines(for preview: SyncPreview, escape: (String) -> String) -> [String] {
        if preview.isEmpty { return ["Nothing to receive, send or merge."] }
        var lines: [String] = []
        section("Would receive", preview.received, into: &lines, escape: escape)
        section("Would send", preview.sent, into: &lines, escape: escape)
        section("Would merge, changed here and elsewhere (the fields taken from elsewhere)", preview.merged, into: &lines, escape: escape)
        return lines
    }

    /// What the pull found, said as what a sync would do about it.
    public static func notices(for preview: SyncPreview) -> [String] {
        let report = preview.report
        var notices: [String] = []
        let copies = report.conflictCopies.count
        if copies > 0 {
            notices.append(
                "\(copies) account\(copies == 1 ? " has its" : "s have their") key changed on two machines: a sync would keep the other version as a copy"
            )
        }
        if report.resynced {
            notices.append("this machine has been away longer than the server keeps deletions: a sync would run a full resync")
        }
        if report.serverBehind {
            notices.append("the server has lost changes this machine saw (restored from a backup?): a sync would merge and send them again")
        }
        let replays = report.refusedReplays.count
        if replays > 0 {
            notices.append(
                "the server serves an older version of \(replays) account\(replays == 1 ? "" : "s") than this machine saw: a sync would refuse it and send this machine's version"
            )
        }
        let lost = report.lostAcknowledged.count
        if lost > 0 {
            notices.append(
                "the server no longer holds \(lost) change\(lost == 1 ? "" : "s") it acknowledged: a sync would send \(lost == 1 ? "it" : "them") again"
            )
        }
        let unreadable = report.unreadable.count
        if unreadable > 0 {
            notices.append(
                "\(unreadable) entr\(unreadable == 1 ? "y" : "ies") on the server cannot be opened (another key, damage or tampering): a sync would set \(unreadable == 1 ? "it" : "them") aside"
            )
        }
        return notices
    }

    /// One account's line: its label, its short id, and what changes.
    static func line(_ change: SyncPreview.Change, escape: (String) -> String) -> String {
        let label = escape(Account.displayName(issuer: change.issuer, name: change.name))
        let id = String(change.id.uuidString.lowercased().prefix(8))
        let what =
            change.isDeleted
            ? "deleted"
            : change.isNew ? "new" : change.fields.map { $0 == .deleted ? "restored" : $0.rawValue }.joined(separator: ", ")
        return "  \(label.isEmpty ? "(no name)" : label) [\(id)]: \(what.isEmpty ? "no visible change" : what)"
    }

    private static func section(_ title: String, _ changes: [SyncPreview.Change], into lines: inout [String], escape: (String) -> String) {
        guard !changes.isEmpty else { return }
        lines.append("\(title): \(changes.count)")
        let sorted = changes.sorted {
            (Account.displayName(issuer: $0.issuer, name: $0.name).lowercased(), $0.id.uuidString)
                < (Account.displayName(issuer: $1.issuer, name: $1.name).lowercased(), $1.id.uuidString)
        }
        lines += sorted.map { line($0, escape: escape) }
    }
}
