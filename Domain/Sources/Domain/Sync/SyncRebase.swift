import Foundation

/// What a machine does with an entry when the server has lost versions it saw: the server was
/// restored from a backup (its head fell behind the cursor, or its generation changed), or a
/// full resync found the entry older than the machine's base or missing. The machine keeps what
/// it knows, merges what the server has that it never saw, and sends the result again. Omission
/// is not deletion: only a tombstone the machine receives deletes.
enum SyncRebase {
    /// The merge base for `remote` (an older or other version the server now serves) against
    /// `seen`, the latest version this machine had from the server: each field as the server
    /// has it where the server's change is no later than the one seen (an ancestor of what this
    /// machine holds, so this machine's value wins), else as seen (a change made elsewhere since
    /// the restore, which merges like any concurrent change).
    ///
    /// The key goes by the keys each version says it replaced where that tells: the remote key
    /// replaced the one seen (base: seen, the remote change wins), the key seen replaced the
    /// remote one (base: remote), or both descend from a key neither replaced the other after
    /// (written without each other: both changed, so both stay). Only where neither tells do
    /// the stamps decide.
    static func base(seen: SyncRecord, remote: SyncRecord) -> SyncRecord {
        var base = seen
        func older<Value>(_ field: WritableKeyPath<SyncRecord, Stamped<Value>>) {
            if remote[keyPath: field].changedAt <= seen[keyPath: field].changedAt { base[keyPath: field] = remote[keyPath: field] }
        }
        switch keyLineage(seen: seen, remote: remote) {
        case .remoteReplacedSeen: break
        case .seenReplacedRemote:
            base.key = remote.key
            base.keyHistory = remote.keyHistory
        case .forked:
            base = withUnknownKey(base)
        case .unknown:
            older(\.key)
            if base.key == remote.key { base.keyHistory = remote.keyHistory }
        }
        older(\.issuer)
        older(\.name)
        older(\.note)
        older(\.isFavorite)
        older(\.groups)
        older(\.position)
        older(\.isDeleted)
        // A field only a newer build knows is a field like the others: the older of the two,
        // and absent is the oldest (a side whose older copy lacks it or holds an earlier write of
        // it has not edited it since).
        for name in Set(seen.unknown.fields.keys).union(remote.unknown.fields.keys) {
            let (mine, theirs) = (seen.unknown.fields[name], remote.unknown.fields[name])
            guard let theirs else {
                base.unknown.fields[name] = nil
                continue
            }
            if let mine, let seenStamp = mine.changedAt, let remoteStamp = theirs.changedAt, remoteStamp <= seenStamp {
                base.unknown.fields[name] = theirs
            }
        }
        if remote.key.value == base.key.value { base.counter = min(seen.counter, remote.counter) }
        return base
    }

    /// Whether `later` can hold every change of `record`: each of its fields stamped no earlier,
    /// and, with the same key, an HOTP counter no lower. A record written by a machine that had
    /// `record` always can; one that cannot was written without it.
    static func holds(_ later: SyncRecord, _ record: SyncRecord) -> Bool {
        zip(later.stamps, record.stamps).allSatisfy { $0 >= $1 } && (later.key.value != record.key.value || later.counter >= record.counter)
            && holdsUnknown(later, record)
    }

    /// Whether `later` has each stamped field of `record` that this version does not know, stamped
    /// no earlier (a machine on another version wrote it; a record without it never had it).
    static func holdsUnknown(_ later: SyncRecord, _ record: SyncRecord) -> Bool {
        record.unknown.fields.allSatisfy { name, field in
            guard let stamp = field.changedAt else { return true }
            return later.unknown.fields[name]?.changedAt.map { $0 >= stamp } ?? false
        }
    }

    /// Whether `later` has a field (other than the key, whose stamps a fold may lower) stamped
    /// before the same field of `record`, or lacks one another version wrote: then it was not
    /// written from `record`.
    static func lacksFields(of record: SyncRecord, _ later: SyncRecord) -> Bool {
        zip(later.stamps.dropFirst(), record.stamps.dropFirst()).contains { $0 < $1 } || !holdsUnknown(later, record)
    }

    /// Whether `later` holds the key of `record` with a lower HOTP counter: counters of one key
    /// only grow along an entry's versions (every merge keeps the larger), so `later` was written
    /// without `record`'s codes (over a copy the server served after losing `record`).
    static func lowersCounter(of record: SyncRecord, _ later: SyncRecord) -> Bool {
        later.key.value == record.key.value && later.counter < record.counter
    }

    /// How the key seen and the remote key are related, as far as their records say.
    enum KeyLineage: Equatable {
        case remoteReplacedSeen, seenReplacedRemote, forked, unknown
    }

    static func keyLineage(seen: SyncRecord, remote: SyncRecord) -> KeyLineage {
        if seen.key.value == remote.key.value { return .unknown }
        if remote.keyHistory.contains(seen.key.changedAt) { return .remoteReplacedSeen }
        if seen.keyHistory.contains(remote.key.changedAt) { return .seenReplacedRemote }
        if !Set(seen.keyHistory).isDisjoint(with: remote.keyHistory) { return .forked }
        return .unknown
    }

    /// `base` with a key neither side holds (no secret is empty), stamped before it: merged
    /// against it, both sides changed the key, so both versions stay.
    static func withUnknownKey(_ base: SyncRecord) -> SyncRecord {
        var result = base
        let key = base.key.value
        result.key = Stamped(
            KeyMaterial(secret: Secret(bytes: []), kind: key.kind, algorithm: key.algorithm, digits: key.digits),
            changedAt: base.keyHistory.first ?? base.key.changedAt)
        return result
    }

    /// The entry's base once the server is known to hold `remote` at `sequence` instead of the
    /// version seen: the next push is based on what the server holds, under a version above both,
    /// so no machine takes it for a replay.
    static func rebased(_ seen: RemoteEntry, onto sequence: Int64, serving version: UInt64) -> RemoteEntry {
        RemoteEntry(sequence: sequence, record: seen.record, version: max(seen.version, version))
    }
}
