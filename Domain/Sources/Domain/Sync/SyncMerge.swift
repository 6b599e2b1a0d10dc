import Foundation

/// The result of merging one entry: what both sides hold from now on, and, when its key was
/// changed on both sides, the other version kept as an entry of its own.
public struct EntryMerge: Hashable, Sendable {
    public let merged: SyncRecord
    /// The key version that lost (see SyncMerge), as a new entry: a secret is never dropped.
    public let conflictCopy: SyncRecord?

    public init(merged: SyncRecord, conflictCopy: SyncRecord?) {
        self.merged = merged
        self.conflictCopy = conflictCopy
    }
}

/// The three-way merge of one entry: `base` (what both sides last agreed on; nil when unknown,
/// after a full resync), the local version and the remote one. Pure, and symmetric: swapping
/// local and remote gives the same result, so every machine converges on the same entries.
///
/// - An edit since the base beats a delete (a lost seed locks a person out), keeping the larger
///   HOTP counter of the two when they hold the same key.
/// - Key material (secret, kind, algorithm, digits) changed on both sides: the later change
///   keeps the entry, the other becomes a conflict copy with an id both sides derive alike.
/// - The HOTP counter: the largest of the sides that hold the merged key (each side used
///   consecutive counters from the base).
/// - Other fields, each on its own: a side that left it as in the base takes the other's, unless
///   the other's is older than the base's (a stale copy); changed on both, the later change wins
///   (hybrid logical clock, then device). Groups merge as sets:
///   what either side added, less what either side removed.
public enum SyncMerge {
    public static func merge(base: SyncRecord?, local: SyncRecord, remote: SyncRecord) -> EntryMerge {
        if local == remote { return EntryMerge(merged: local, conflictCopy: nil) }
        // What another version wrote that this one does not know: kept from both sides.
        let known = mergeKnown(base: base, local: local, remote: remote)
        func withUnknown(_ record: SyncRecord) -> SyncRecord {
            var record = record
            record.unknown = SyncUnknownParts.merged(local.unknown, remote.unknown, key: record.key.changedAt)
            return record
        }
        return EntryMerge(merged: withUnknown(known.merged), conflictCopy: known.conflictCopy.map(withUnknown))
    }

    private static func mergeKnown(base: SyncRecord?, local: SyncRecord, remote: SyncRecord) -> EntryMerge {
        let chosen: SyncRecord
        switch (local.isDeleted.value, remote.isDeleted.value) {
        case (true, true):
            // Both deleted: still every field merged, so an edit that later revives the entry
            // finds what each side wrote before deleting (no copy of a key both sides deleted).
            return EntryMerge(merged: mergeContent(base: base, local: local, remote: remote).merged, conflictCopy: nil)
        case (true, false):
            guard edited(remote, since: base, against: local) else {
                chosen = local
                break
            }
            return revived(base: base, deleted: local, live: remote, liveIsLocal: false)
        case (false, true):
            guard edited(local, since: base, against: remote) else {
                chosen = remote
                break
            }
            return revived(base: base, deleted: remote, live: local, liveIsLocal: true)
        case (false, false): return mergeContent(base: base, local: local, remote: remote)
        }
        return EntryMerge(merged: withLargerCounter(chosen, local, remote), conflictCopy: nil)
    }

    /// An edit beat a delete: the entry lives on with every field merged as if neither side had
    /// deleted it (what the deleting side edited before deleting is kept too), alive as the live
    /// side has it.
    private static func revived(base: SyncRecord?, deleted: SyncRecord, live: SyncRecord, liveIsLocal: Bool) -> EntryMerge {
        var undeleted = deleted
        undeleted.isDeleted = live.isDeleted
        let merge =
            liveIsLocal
            ? mergeContent(base: base, local: live, remote: undeleted) : mergeContent(base: base, local: undeleted, remote: live)
        var merged = merge.merged
        merged.isDeleted = live.isDeleted
        return EntryMerge(
            merged: merged,
            conflictCopy: merge.conflictCopy.map { copy in
                var copy = copy
                copy.isDeleted = live.isDeleted
                return copy
            })
    }

    /// `chosen` with the larger HOTP counter of the two sides when both hold its key: a side
    /// that deleted the entry may have used codes before it did.
    private static func withLargerCounter(_ chosen: SyncRecord, _ local: SyncRecord, _ remote: SyncRecord) -> SyncRecord {
        guard local.key.value == remote.key.value else { return chosen }
        var merged = chosen
        merged.counter = Swift.max(local.counter, remote.counter)
        return merged
    }

    private static func mergeContent(base: SyncRecord?, local: SyncRecord, remote: SyncRecord) -> EntryMerge {
        var merged = local
        merged.issuer = field(\.issuer, base, local, remote)
        merged.name = field(\.name, base, local, remote)
        merged.note = field(\.note, base, local, remote)
        merged.isFavorite = field(\.isFavorite, base, local, remote)
        merged.position = field(\.position, base, local, remote)
        merged.isDeleted = field(\.isDeleted, base, local, remote)
        merged.groups = groups(base, local, remote)
        var copy: SyncRecord?
        if local.key.value == remote.key.value {
            // The same key under two stamps (an account added again folds into the entry): the
            // earlier stays, and the history names the later too, so a machine that replaced the
            // key under either stamp is told from one that holds it, and a change made over
            // either is seen as made over this one.
            let (earlier, later) = local.key.changedAt < remote.key.changedAt ? (local.key, remote.key) : (remote.key, local.key)
            merged.key = earlier
            let alias = later.changedAt == earlier.changedAt ? [] : [later.changedAt]
            merged.keyHistory = SyncRecord.keyHistory(alias + local.keyHistory + remote.keyHistory)
            merged.counter = Swift.max(local.counter, remote.counter)
        } else {
            // Which side changed the key is judged by its value: a side may restamp the key it had
            // (an account added again folds into the entry), which changes nothing.
            // Without a base (a vault restored from before its first sync, a machine joining
            // again), a key the other side's history names is one it replaced knowingly: unchanged.
            let localChanged = base.map { $0.key.value != local.key.value } ?? !remote.keyHistory.contains(local.key.changedAt)
            let remoteChanged = base.map { $0.key.value != remote.key.value } ?? !local.keyHistory.contains(remote.key.changedAt)
            let winner =
                localChanged == remoteChanged ? later(local.key, remote.key, by: \.changedAt) : (localChanged ? local.key : remote.key)
            let (kept, other) = winner == local.key ? (local, remote) : (remote, local)
            merged.key = winner
            merged.keyHistory = kept.keyHistory
            merged.counter = kept.counter
            // Both changed the key (or no base tells which did): the other version stays too.
            if localChanged && remoteChanged {
                // The kept key stands for both from now on: a machine holding the other sees it
                // as replaced (the copy keeps it), not as lost.
                merged.keyHistory = SyncRecord.keyHistory([other.key.changedAt] + kept.keyHistory + other.keyHistory)
                copy = SyncRecord(
                    id: conflictID(of: local.id, losing: other.key.changedAt), key: other.key, counter: other.counter,
                    issuer: merged.issuer, name: merged.name, note: merged.note, isFavorite: merged.isFavorite,
                    groups: merged.groups, position: merged.position, isDeleted: other.isDeleted, keyHistory: other.keyHistory,
                    unknown: other.unknown)
            }
        }
        return EntryMerge(merged: merged, conflictCopy: copy)
    }

    /// One field: the side that changed it since the base, or the later change. A side whose
    /// field is older than the base's is a stale copy (a machine that re-sent what it held before
    /// the base, after a server lost or garbled the entry), not a change: the base's stands.
    private static func field<Value>(
        _ path: KeyPath<SyncRecord, Stamped<Value>>, _ base: SyncRecord?, _ local: SyncRecord, _ remote: SyncRecord
    ) -> Stamped<Value> {
        let (mine, theirs) = (local[keyPath: path], remote[keyPath: path])
        if mine == theirs { return mine }
        if let base {
            let original = base[keyPath: path]
            if mine == original { return theirs.changedAt < original.changedAt ? mine : theirs }
            if theirs == original { return mine.changedAt < original.changedAt ? theirs : mine }
        }
        return later(mine, theirs, by: \.changedAt)
    }

    /// Groups as sets: the base, less what either side removed, plus what either side added.
    private static func groups(_ base: SyncRecord?, _ local: SyncRecord, _ remote: SyncRecord) -> Stamped<Set<String>> {
        let stamp = later(local.groups, remote.groups, by: \.changedAt).changedAt
        guard let base else { return Stamped(local.groups.value.union(remote.groups.value), changedAt: stamp) }
        let original = base.groups.value
        let kept = original.intersection(local.groups.value).intersection(remote.groups.value)
        let added = local.groups.value.subtracting(original).union(remote.groups.value.subtracting(original))
        return Stamped(kept.union(added), changedAt: stamp)
    }

    /// A side holds an edit the other side does not hold: a field it changed since the base (any
    /// but the deletion) that differs from the other side's (with no base: a field later than the
    /// other side's), or an HOTP counter it moved since the base past the other side's (with no
    /// base, a larger counter of the same key). A copy that only lags behind (a vault restored from an old
    /// copy, whose base is stale too) is no edit; nor is a field other than the key older than the
    /// other side's of the same field: the other side's later write wins that field whatever
    /// happens to the entry, so nothing of the edit would live on (and a base older than what this
    /// machine saw, after a server lost or replayed versions, would otherwise make its own earlier
    /// writes look like another machine's edits). A key always counts: a secret is never dropped,
    /// and its stamp may be the earlier of two (the same key added on two machines).
    private static func edited(_ side: SyncRecord, since base: SyncRecord?, against other: SyncRecord) -> Bool {
        func differs<Value>(_ field: KeyPath<SyncRecord, Stamped<Value>>, byStamp: Bool = true) -> Bool {
            let later = side[keyPath: field].changedAt > other[keyPath: field].changedAt
            guard let base else { return later }
            return (later || !byStamp) && side[keyPath: field] != base[keyPath: field] && side[keyPath: field] != other[keyPath: field]
        }
        // Codes used up to a counter the other side reached with the same key tell it nothing new;
        // nor do codes used of a key the other side replaced (that key is gone there, and with it
        // what its counter guarded).
        let replaced =
            other.keyHistory.contains(side.key.changedAt) || base.map { $0.key == side.key && other.key != $0.key } ?? false
        let beyond = side.key.value == other.key.value ? side.counter > other.counter : !replaced
        let counter = beyond && (base.map { side.counter != $0.counter } ?? (side.key.value == other.key.value))
        // A field another version wrote is an edit like any other, told by its stamp.
        let unknown = side.unknown.fields.contains { name, field in
            guard let base else {
                guard let stamp = field.changedAt else { return false }
                return other.unknown.fields[name]?.changedAt.map { stamp > $0 } ?? true
            }
            if let theirs = other.unknown.fields[name]?.changedAt, let stamp = field.changedAt, stamp < theirs { return false }
            return field != base.unknown.fields[name] && field != other.unknown.fields[name]
        }
        return counter || unknown || differs(\.key, byStamp: false) || differs(\.issuer) || differs(\.name) || differs(\.note)
            || differs(\.isFavorite)
            || differs(\.groups) || differs(\.position)
    }

    /// The one of two whose `key` is greater (the later change).
    private static func later<T, Key: Comparable>(_ a: T, _ b: T, by key: KeyPath<T, Key>) -> T {
        a[keyPath: key] < b[keyPath: key] ? b : a
    }

    /// The conflict copy's id: the entry's, mixed with the losing change's reading, so every
    /// machine that meets the same conflict makes the same copy (and pushes it only once).
    static func conflictID(of id: UUID, losing stamp: HybridTimestamp) -> UUID {
        var bytes = id.bytes
        let device = stamp.device.bytes
        let mix =
            (0..<8).map { UInt8(truncatingIfNeeded: stamp.milliseconds >> ($0 * 8)) }
            + (0..<4).map { UInt8(truncatingIfNeeded: stamp.counter >> ($0 * 8)) } + [0x5A, 0xC3, 0x96, 0x3C]
        for index in 0..<16 { bytes[index] ^= mix[index] ^ device[(index * 7) % 16] }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return UUID(bytes: bytes)!
    }
}
