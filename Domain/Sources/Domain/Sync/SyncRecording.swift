import Foundation

/// How local changes become sync records, and records become accounts again: pure rules the
/// vault runs in the transaction of each change. A field takes a new stamp only when its value
/// changed, so a merge sees exactly what this machine edited.
public enum SyncRecording {
    /// The key material of an account (its kind without the HOTP counter).
    public static func keyMaterial(of account: Account) -> KeyMaterial {
        let kind: KeyMaterial.Kind =
            switch account.kind {
            case .totp(let period): .totp(period: period)
            case .hotp: .hotp
            case .steam: .steam
            }
        return KeyMaterial(secret: account.secret, kind: kind, algorithm: account.algorithm, digits: account.digits)
    }

    /// The HOTP counter of an account; 0 for the time-based kinds.
    static func hotpCounter(of account: Account) -> UInt64 {
        if case .hotp(let counter) = account.kind { counter } else { 0 }
    }

    /// The first record of an account (every field stamped `stamp`), placed at `position`.
    public static func record(for account: Account, at position: FractionalPosition, stamp: HybridTimestamp) -> SyncRecord {
        SyncRecord(
            id: account.id, key: Stamped(keyMaterial(of: account), changedAt: stamp), counter: hotpCounter(of: account),
            issuer: Stamped(account.issuer, changedAt: stamp), name: Stamped(account.name, changedAt: stamp),
            note: Stamped(account.note, changedAt: stamp), isFavorite: Stamped(account.isFavorite, changedAt: stamp),
            groups: Stamped(Set(account.groups), changedAt: stamp), position: Stamped(position, changedAt: stamp),
            isDeleted: Stamped(false, changedAt: stamp))
    }

    /// `record` after the account was edited here: each field whose value differs is stamped
    /// `stamp`; the HOTP counter only grows.
    public static func updating(_ record: SyncRecord, to account: Account, stamp: HybridTimestamp) -> SyncRecord {
        var result = record
        func set<Value>(_ field: WritableKeyPath<SyncRecord, Stamped<Value>>, _ value: Value) {
            if result[keyPath: field].value != value { result[keyPath: field] = Stamped(value, changedAt: stamp) }
        }
        if record.key.value != keyMaterial(of: account) {
            result.keyHistory = SyncRecord.keyHistory([record.key.changedAt] + record.keyHistory)
        }
        set(\.key, keyMaterial(of: account))
        set(\.issuer, account.issuer)
        set(\.name, account.name)
        set(\.note, account.note)
        set(\.isFavorite, account.isFavorite)
        set(\.groups, Set(account.groups))
        set(\.isDeleted, false)
        result.counter = max(record.counter, hotpCounter(of: account))
        return result
    }

    /// `record` deleted here.
    public static func deleting(_ record: SyncRecord, stamp: HybridTimestamp) -> SyncRecord {
        var result = record
        result.isDeleted = Stamped(true, changedAt: stamp)
        return result
    }

    /// `record` moved to `position` here.
    public static func moving(_ record: SyncRecord, to position: FractionalPosition, stamp: HybridTimestamp) -> SyncRecord {
        guard record.position.value != position else { return record }
        var result = record
        result.position = Stamped(position, changedAt: stamp)
        return result
    }

    /// Whether a record carries text the account text rule forbids (a terminal escape, a C1
    /// control, a bidi override): another device wrote it, since this one's commands refuse it.
    public static func hasForbiddenText(_ record: SyncRecord) -> Bool {
        AccountText.containsForbidden(record.issuer.value) || AccountText.containsForbidden(record.name.value)
            || AccountText.containsForbidden(record.note.value) || record.groups.value.contains(where: AccountText.containsForbidden)
    }

    /// The account a record holds; nil for a deleted one. `previous` (the account as stored here,
    /// if any) keeps its creation date; a new one dates from its key's stamp. Text comes through
    /// the same rule as every other way in: characters it forbids are removed (the record keeps
    /// them, so every machine merges alike; an edit here sends the cleaned text).
    public static func account(from record: SyncRecord, previous: Account?) -> Account? {
        guard !record.isDeleted.value else { return nil }
        let material = record.key.value
        let kind: OTPKind =
            switch material.kind {
            case .totp(let period): .totp(period: period)
            case .hotp: .hotp(counter: record.counter)
            case .steam: .steam
            }
        let latest = Date(timeIntervalSince1970: Double(record.stamps.max()!.milliseconds) / 1000)
        let created = previous?.createdAt ?? Date(timeIntervalSince1970: Double(record.key.changedAt.milliseconds) / 1000)
        let groups = Set(record.groups.value.map { AccountText.removingForbidden($0).text }.filter { !$0.isEmpty })
        var account = Account(
            id: record.id, issuer: AccountText.removingForbidden(record.issuer.value).text,
            name: AccountText.removingForbidden(record.name.value).text, secret: material.secret, kind: kind,
            algorithm: material.algorithm, digits: material.digits, note: AccountText.removingForbidden(record.note.value).text,
            isFavorite: record.isFavorite.value, groups: groups.sorted(), createdAt: created, updatedAt: max(latest, created))
        if let previous, Set(previous.groups) == groups { account.groups = previous.groups }
        if let previous, account.withDates(of: previous) == previous { return previous }
        return account
    }

    /// Positions for a vault's entries when it starts to sync, in its order. The machine that
    /// opens the account spreads them after "y"; a machine that joins spreads its own after "z",
    /// so its accounts follow the account's instead of interleaving with them.
    public static func initialPositions(count: Int, joining: Bool) -> [FractionalPosition] {
        FractionalPosition.spread(count).map { FractionalPosition((joining ? "z" : "y") + $0.digits)! }
    }

    /// `count` positions in order after `last` (new entries at the end of the list), short
    /// however many come at once: one step after `last`, then that step's digits with a spread.
    public static func positions(appending count: Int, after last: FractionalPosition?) -> [FractionalPosition] {
        guard count > 0 else { return [] }
        let head = FractionalPosition.between(last, nil)
        guard count > 1 else { return [head] }
        return FractionalPosition.spread(count).map { FractionalPosition(head.digits + $0.digits)! }
    }

    /// Positions for the user's new `order`: entries that keep their place relative to each other
    /// (the longest run already in order) keep their position; the others get one between their
    /// new neighbours. Only moved entries change, so a reorder merges with other machines' edits.
    public static func positions(for order: [UUID], current: [UUID: FractionalPosition]) -> [UUID: FractionalPosition] {
        let kept = Set(longestIncreasingRun(order.map { current[$0] }).map { order[$0] })
        var result: [UUID: FractionalPosition] = [:]
        var previous: FractionalPosition?
        for (index, id) in order.enumerated() {
            if kept.contains(id), let position = current[id] {
                result[id] = position
                previous = position
                continue
            }
            let next = order[(index + 1)...].first { kept.contains($0) }.flatMap { current[$0] }
            let position = FractionalPosition.between(previous, next)
            result[id] = position
            previous = position
        }
        return result
    }

    /// Indexes of a longest strictly increasing run of the non-nil values (patience sorting).
    static func longestIncreasingRun(_ values: [FractionalPosition?]) -> [Int] {
        var tails: [Int] = []
        var parent = [Int?](repeating: nil, count: values.count)
        for (index, value) in values.enumerated() {
            guard let value else { continue }
            var low = 0
            var high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if values[tails[middle]]! < value { low = middle + 1 } else { high = middle }
            }
            parent[index] = low > 0 ? tails[low - 1] : nil
            if low == tails.count { tails.append(index) } else { tails[low] = index }
        }
        var run: [Int] = []
        var cursor = tails.last
        while let index = cursor {
            run.append(index)
            cursor = parent[index]
        }
        return run.reversed()
    }
}

extension Account {
    /// This account with `other`'s dates (to compare content only).
    fileprivate func withDates(of other: Account) -> Account {
        var copy = self
        copy.createdAt = other.createdAt
        copy.updatedAt = other.updatedAt
        return copy
    }
}
