import Foundation

/// The same account added on two machines, each pushed before either saw the other's: two
/// entries on the server with one key. Every machine folds them the same way, so their pushes
/// agree byte for byte: the entry with the smaller id stays, with the larger HOTP counter; the
/// other is deleted, stamped just after its own latest change. No secret is lost (both hold the
/// same key). Twins whose keys one machine made (`tokens add --allow-duplicate`) are left alone.
enum SyncTwins {
    static func fold(in state: inout SyncSnapshot, report: inout SyncReport) {
        let live = state.records.values.filter { !$0.isDeleted.value && state.bases[$0.id] != nil }
        for twins in Dictionary(grouping: live, by: \.key.value).values where twins.count > 1 {
            let sorted = twins.sorted { $0.id.ordersBefore($1.id) }
            var keeper = sorted[0]
            for twin in sorted.dropFirst() where twin.key.changedAt.device != keeper.key.changedAt.device {
                var gone = twin
                gone.isDeleted = Stamped(true, changedAt: justAfter(twin.stamps.max()!))
                state.records[twin.id] = gone
                state.pending.insert(twin.id)
                keeper.counter = max(keeper.counter, twin.counter)
                report.mergedAdds += 1
            }
            if keeper != sorted[0] {
                state.records[keeper.id] = keeper
                state.pending.insert(keeper.id)
            }
        }
    }

    /// A twin folded away comes back when the entry it was folded into may be lost: the server
    /// serves, under a smaller id, an entry this machine cannot read and never held (garbage over
    /// the kept entry, which only the machine that folded may have held; one held here is sent
    /// again instead), and no live entry here holds its key.
    /// A fold's delete is told from a user's by its stamp (just after the entry's latest change,
    /// as `fold` writes it). Every machine that sees this revives the twin the same way (stamped
    /// just after the fold); once the kept entry is readable again, the pair folds again.
    static func reviveFolded(in state: inout SyncSnapshot, unreadable: [UUID]) {
        guard let firstUnreadable = unreadable.filter({ state.records[$0] == nil }).min(by: { $0.ordersBefore($1) }) else { return }
        let heldKeys = Set(state.records.values.filter { !$0.isDeleted.value }.map(\.key.value))
        for var twin in state.records.values
        where twin.isDeleted.value && state.bases[twin.id] != nil && firstUnreadable.ordersBefore(twin.id)
            && !heldKeys.contains(twin.key.value) && isFoldDelete(twin)
        {
            twin.isDeleted = Stamped(false, changedAt: justAfter(twin.isDeleted.changedAt))
            state.records[twin.id] = twin
            state.pending.insert(twin.id)
        }
    }

    /// Whether `record`'s delete is stamped as `fold` stamps one: just after its latest other change.
    private static func isFoldDelete(_ record: SyncRecord) -> Bool {
        record.isDeleted.changedAt == justAfter(record.contentStamps.max()!)
    }

    /// The reading one count after `stamp`, of the same device (what a fold stamps with).
    private static func justAfter(_ stamp: HybridTimestamp) -> HybridTimestamp {
        HybridTimestamp(milliseconds: stamp.milliseconds, counter: stamp.counter &+ 1, device: stamp.device)
    }
}

extension SyncRecord {
    /// The reading of every field's last change.
    public var stamps: [HybridTimestamp] { contentStamps + [isDeleted.changedAt] }

    /// The same, but for the deletion's.
    var contentStamps: [HybridTimestamp] {
        [key.changedAt, issuer.changedAt, name.changedAt, note.changedAt, isFavorite.changedAt, groups.changedAt, position.changedAt]
    }
}
