import Foundation

/// One version of an account: an earlier one the server kept, or the one this machine holds.
public struct AccountVersion: Hashable, Sendable {
    /// The version its writer sealed (1 for a new entry; one more with each change).
    public let version: UInt64
    public let record: SyncRecord
    /// When a push replaced it on the server; nil for the version this machine holds now.
    public let replacedAt: Date?
    /// What it changed from the version before it (every field for the first one kept).
    public let changed: [SyncField]

    public init(version: UInt64, record: SyncRecord, replacedAt: Date?, changed: [SyncField]) {
        self.version = version
        self.record = record
        self.replacedAt = replacedAt
        self.changed = changed
    }

    public var isCurrent: Bool { replacedAt == nil }

    /// The reading of its latest change among the fields it changed: when, and which machine
    /// (the device id the sync account knows it by).
    public var madeAt: HybridTimestamp {
        let stamps = changed.compactMap { $0.stamp(in: record) }
        return stamps.max() ?? record.stamps.max()!
    }
}

/// An account's versions, oldest first: the earlier ones the server keeps, then the one this
/// machine holds (absent once the entry is forgotten here: a deletion the server expired).
public struct AccountHistory: Hashable, Sendable, Identifiable {
    public let id: UUID
    public let versions: [AccountVersion]

    public init(id: UUID, versions: [AccountVersion]) {
        self.id = id
        self.versions = versions
    }

    /// The newest version (the current one, when this machine holds the entry).
    public var latest: AccountVersion { versions[versions.count - 1] }

    /// Whether the account is deleted (or forgotten) here: a restore brings it back.
    public var isDeleted: Bool { !latest.isCurrent || latest.record.isDeleted.value }

    /// The version numbered `number`, if kept.
    public func version(_ number: UInt64) -> AccountVersion? { versions.last { $0.version == number } }

    /// Whether `query` names it: the start of its id, or text in any version's issuer or name
    /// (any case). An empty query names every account.
    public func matches(_ query: String) -> Bool {
        let query = query.trimmingCharacters(in: .whitespaces)
        guard !query.isEmpty else { return true }
        if id.uuidString.lowercased().hasPrefix(query.lowercased()) { return true }
        return versions.contains { version in
            version.record.issuer.value.localizedCaseInsensitiveContains(query)
                || version.record.name.value.localizedCaseInsensitiveContains(query)
        }
    }

    /// The history of one entry from its earlier versions (any order) and the record this
    /// machine holds (`current`, sealed or to be sealed as `currentVersion`): ordered by version
    /// (then sequence), a version repeated or holding the same record as the one after it (the
    /// entry sent again, for a new key or after a server restore) shown once, as the later.
    public static func assemble(
        id: UUID, earlier: [EarlierVersion], current: SyncRecord?, currentVersion: UInt64
    ) -> AccountHistory? {
        var ordered = earlier.sorted { ($0.entry.version, $0.entry.sequence) < ($1.entry.version, $1.entry.sequence) }
            .map { (version: $0.entry.version, record: $0.entry.record, replacedAt: Optional($0.replacedAt)) }
        if let current { ordered.append((currentVersion, current, nil)) }
        var kept: [(version: UInt64, record: SyncRecord, replacedAt: Date?)] = []
        for item in ordered {
            if let last = kept.last, last.version == item.version || last.record == item.record { kept.removeLast() }
            kept.append(item)
        }
        guard !kept.isEmpty else { return nil }
        var versions: [AccountVersion] = []
        for (index, item) in kept.enumerated() {
            let changed = index == 0 ? SyncField.allCases : SyncField.written(from: kept[index - 1].record, to: item.record)
            versions.append(AccountVersion(version: item.version, record: item.record, replacedAt: item.replacedAt, changed: changed))
        }
        return AccountHistory(id: id, versions: versions)
    }
}
