import Domain
import Foundation

/// `tokens history` in the user's words: for each account a heading ("Issuer (name) [id]"), then
/// its versions newest first, one a line: the version to give `tokens restore ID@VERSION`, when
/// it was made, on which machine, and which fields it changed. Secrets are only named ("key");
/// text that came from other machines goes through `escape` before it is shown.
public enum AccountHistoryText {
    /// The lines for `accounts`; `machines` names the sync account's devices by id.
    public static func lines(for accounts: [AccountHistory], machines: [UUID: String], escape: (String) -> String) -> [String] {
        guard !accounts.isEmpty else { return ["No history kept for these accounts."] }
        var lines: [String] = []
        for history in accounts {
            let record = history.versions.last { !$0.record.isDeleted.value }?.record ?? history.latest.record
            let label = escape(Account.displayName(issuer: record.issuer.value, name: record.name.value))
            let id = String(history.id.uuidString.lowercased().prefix(8))
            lines.append("\(label.isEmpty ? "(no name)" : label) [\(id)]\(history.isDeleted ? " (deleted)" : "")")
            for (index, version) in history.versions.enumerated().reversed() {
                lines.append(line(version, first: index == 0, id: id, machines: machines, escape: escape))
            }
        }
        return lines
    }

    /// One version: "  ID@VERSION  TIME  MACHINE  WHAT[  (now)]".
    static func line(_ version: AccountVersion, first: Bool, id: String, machines: [UUID: String], escape: (String) -> String) -> String {
        let made = version.madeAt
        let time = ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: Double(made.milliseconds) / 1000))
        let machine = machines[made.device].map(escape) ?? "machine \(made.device.uuidString.lowercased().prefix(8))"
        return "  \(id)@\(version.version)  \(time)  \(machine)  \(what(version, first: first))\(version.isCurrent ? "  (now)" : "")"
    }

    /// What the version did: added, deleted, restored, or the fields it changed.
    static func what(_ version: AccountVersion, first: Bool) -> String {
        if first { return version.version == 1 ? "added" : "the earliest kept" }
        if version.changed.contains(.deleted) { return version.record.isDeleted.value ? "deleted" : "restored" }
        let fields = version.changed.map { $0 == .secret ? "key (secret, kind or digits)" : $0.rawValue }
        return fields.isEmpty ? "sent again (no field changed)" : fields.joined(separator: ", ")
    }

    /// `ID@VERSION` as `tokens restore` takes it: the start of an account's id, and a version.
    public static func reference(_ text: String) -> (id: String, version: UInt64)? {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, let version = UInt64(parts[1]), version > 0,
            !parts[0].isEmpty, parts[0].allSatisfy({ $0.isHexDigit || $0 == "-" })
        else { return nil }
        return (parts[0].lowercased(), version)
    }
}
