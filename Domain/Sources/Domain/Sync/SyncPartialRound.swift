import Foundation

/// When a round may read only the entries it touches: the ones that wait to be sent or
/// confirmed, and the ones the server's pages name (`SyncLocalStore.partialSnapshot`,
/// `entries`). Such a round does what the whole round does, because nothing it does looks past
/// those entries: every merge is of one entry with its own base, and what looks across entries
/// (twins of one key, HOTP counters carried to the entry that holds a key, a resync's walk of
/// every base) needs an entry whose key, deletion or base changed. The round keeps to entries
/// that change none of those; anything else is left to the whole round, before anything is
/// pushed (or, once a push has been answered with a conflict, by reading the rest then).
public enum SyncPartialRound {
    /// Whether an entry as stored may go through a partial round: it has a base, and its key
    /// and deletion are the base's (stamps included).
    public static func holds(_ record: SyncRecord, base: RemoteEntry?) -> Bool {
        guard let base else { return false }
        return record.key == base.record.key && record.isDeleted == base.record.isDeleted
    }

    /// Whether `records` (with their `bases`) hold twins a round would fold (`SyncTwins`): what
    /// a store keeps after a whole round, since a partial round does not look for them.
    public static func twinsRemain(in records: [UUID: SyncRecord], bases: [UUID: RemoteEntry]) -> Bool {
        var state = SyncSnapshot(records: records, bases: bases)
        var report = SyncReport()
        SyncTwins.fold(in: &state, report: &report)
        return report.mergedAdds > 0
    }

    /// Whether a pulled entry may be taken in a partial round: this machine holds the entry
    /// (`holds`), and the pulled version keeps its base's key and deletion.
    static func takes(_ entry: RemoteEntry, in state: SyncSnapshot) -> Bool {
        let id = entry.record.id
        guard let record = state.records[id], let base = state.bases[id], holds(record, base: base) else { return false }
        return entry.record.key == base.record.key && entry.record.isDeleted == base.record.isDeleted
    }
}

/// Thrown inside a partial round for what only the whole round may do; nothing was pushed yet.
struct SyncNeedsWholeRound: Error {}

extension SyncSnapshot {
    /// Whether this snapshot holds every entry (not a partial round's part).
    public var isWhole: Bool { part == nil }

    /// Adds `loaded` (the stored state of entries read by id) to a partial snapshot: its ids
    /// join `part`, their states replace nothing this round changed (only ids not yet held).
    mutating func add(_ loaded: SyncSnapshot) {
        guard let held = part, let ids = loaded.part else { return }
        for id in ids.subtracting(held) {
            records[id] = loaded.records[id]
            bases[id] = loaded.bases[id]
            pushedOver[id] = loaded.pushedOver[id]
            if loaded.pending.contains(id) { pending.insert(id) }
        }
        part = held.union(ids)
    }

    /// This partial snapshot over `whole` (every entry as stored): the entries it holds as it
    /// holds them, the others as `whole` has them, and its cursor, generation and carried
    /// counters. A whole snapshot is returned as it is.
    func overlaid(on whole: SyncSnapshot) -> SyncSnapshot {
        guard let held = part else { return self }
        var result = whole
        let ids = held.union(records.keys).union(bases.keys).union(pushedOver.keys).union(pending)
        for id in ids {
            result.records[id] = records[id]
            result.bases[id] = bases[id]
            result.pushedOver[id] = pushedOver[id]
            if pending.contains(id) { result.pending.insert(id) } else { result.pending.remove(id) }
        }
        result.cursor = cursor
        result.generation = generation
        result.carriedCounters = carriedCounters
        result.part = nil
        return result
    }
}
