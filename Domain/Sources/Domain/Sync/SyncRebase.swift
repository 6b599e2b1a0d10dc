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
    static func base(seen: SyncRecord, remote: SyncRecord) -> SyncRecord {
        var base = seen
        func older<Value>(_ field: WritableKeyPath<SyncRecord, Stamped<Value>>) {
            if remote[keyPath: field].changedAt <= seen[keyPath: field].changedAt { base[keyPath: field] = remote[keyPath: field] }
        }
        older(\.key)
        older(\.issuer)
        older(\.name)
        older(\.note)
        older(\.isFavorite)
        older(\.groups)
        older(\.position)
        older(\.isDeleted)
        if remote.key.value == base.key.value { base.counter = min(seen.counter, remote.counter) }
        return base
    }

    /// The entry's base once the server is known to hold `remote` at `sequence` instead of the
    /// version seen: the next push is based on what the server holds, under a version above both,
    /// so no machine takes it for a replay.
    static func rebased(_ seen: RemoteEntry, onto sequence: Int64, serving version: UInt64) -> RemoteEntry {
        RemoteEntry(sequence: sequence, record: seen.record, version: max(seen.version, version))
    }
}
