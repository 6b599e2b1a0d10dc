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
                let latest = twin.stamps.max()!
                gone.isDeleted = Stamped(
                    true, changedAt: HybridTimestamp(milliseconds: latest.milliseconds, counter: latest.counter &+ 1, device: latest.device)
                )
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
}

extension SyncRecord {
    /// The reading of every field's last change.
    public var stamps: [HybridTimestamp] {
        [
            key.changedAt, issuer.changedAt, name.changedAt, note.changedAt, isFavorite.changedAt, groups.changedAt, position.changedAt,
            isDeleted.changedAt,
        ]
    }
}
