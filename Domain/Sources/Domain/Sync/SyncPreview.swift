import Foundation

/// What a sync would do, worked out from a pull and the merge without writing anything here or
/// on the server (`tokens sync --dry-run`). A push that meets a change made meanwhile merges
/// again, so the real sync can do a little more than this says, never less of what is listed.
public struct SyncPreview: Equatable, Sendable {
    /// One entry the sync would change.
    public struct Change: Equatable, Sendable {
        public var id: UUID
        /// The entry as it would be after the sync (its issuer and name label it).
        public var issuer: String
        public var name: String
        /// Absent on the other side until now (a new entry).
        public var isNew: Bool
        /// Deleted by the sync (or a deletion sent).
        public var isDeleted: Bool
        /// The fields that would change; for a new entry, none.
        public var fields: [SyncField]

        public init(id: UUID, issuer: String, name: String, isNew: Bool = false, isDeleted: Bool = false, fields: [SyncField] = []) {
            self.id = id
            self.issuer = issuer
            self.name = name
            self.isNew = isNew
            self.isDeleted = isDeleted
            self.fields = fields
        }
    }

    /// Changes other machines made that would be taken in here (this machine did not change them).
    public var received: [Change] = []
    /// Changes made here that would be sent as they are.
    public var sent: [Change] = []
    /// Entries changed both here and elsewhere: merged field by field, then sent. The fields are
    /// the ones the merge takes from elsewhere.
    public var merged: [Change] = []
    /// What the pull and merge found (conflict copies, a server behind, replays, unreadable entries).
    public var report: SyncReport

    public init(report: SyncReport) { self.report = report }

    /// The preview of a round that began with `taken` and, pulled and merged, ends with `state`.
    init(from taken: SyncSnapshot, to state: SyncSnapshot, report: SyncReport) {
        self.report = report
        for id in Set(state.records.keys).union(taken.records.keys).sorted(by: { $0.ordersBefore($1) }) {
            guard let after = state.records[id] else { continue }
            let before = taken.records[id]
            let sending = state.pending.contains(id)
            // Not sent, and nothing a user sees changes here: a tombstone of an entry never held
            // here, or stamps alone moving.
            if !sending, before?.isDeleted.value ?? true, after.isDeleted.value { continue }
            if !sending, let before, SyncField.valuesChanged(from: before, to: after).isEmpty { continue }
            if !sending {
                received.append(Self.change(from: before, to: after))
            } else if before != after, taken.pending.contains(id) {
                merged.append(Self.change(from: before, to: after))
            } else {
                sent.append(Self.change(from: state.bases[id]?.record, to: after))
            }
        }
    }

    /// Whether the sync would change nothing anywhere.
    public var isEmpty: Bool { received.isEmpty && sent.isEmpty && merged.isEmpty }

    private static func change(from before: SyncRecord?, to after: SyncRecord) -> Change {
        Change(
            id: after.id, issuer: after.issuer.value, name: after.name.value, isNew: before == nil, isDeleted: after.isDeleted.value,
            fields: before.map { SyncField.valuesChanged(from: $0, to: after) } ?? [])
    }
}
