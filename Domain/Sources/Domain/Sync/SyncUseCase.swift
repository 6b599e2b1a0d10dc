import Foundation

/// What one sync did.
public struct SyncReport: Equatable, Sendable {
    /// Remote changes taken in (new entries, edits, deletions).
    public var received = 0
    /// Local changes the server accepted.
    public var sent = 0
    /// Entries whose key was changed on two machines: the other version is kept as a copy.
    public var conflictCopies: [UUID] = []
    /// A cursor older than the server's tombstone horizon made this a full resync.
    public var resynced = false
    /// Accounts added here that another machine had added with the same key: now one entry each.
    public var mergedAdds = 0
    /// Entries the server served in a version older than one this machine had seen (a replay,
    /// or a server rolled back): refused, the local entry left as it was.
    public var refusedReplays: [UUID] = []

    public init() {}
}

/// Syncs the local entries with the server: pull what changed, merge it into what changed
/// here (SyncMerge), push what is pending, and merge again where someone pushed first.
public protocol SyncUseCase: Sendable {
    func execute() async throws -> SyncReport
}

/// SyncUseCase over the local store and the remote.
public struct DefaultSyncUseCase: SyncUseCase {
    /// Push rounds before giving up on entries that keep changing remotely.
    public static let pushRounds = 5
    /// Records per push (the server's limit).
    public static let pushSize = 100

    private let local: any SyncLocalStore
    private let remote: any SyncRemote

    public init(local: any SyncLocalStore, remote: any SyncRemote) {
        self.local = local
        self.remote = remote
    }

    public func execute() async throws -> SyncReport {
        let taken = try await local.snapshot()
        var state = taken
        var report = SyncReport()
        try await pull(into: &state, report: &report)
        SyncTwins.fold(in: &state, report: &report)
        try await push(from: &state, report: &report)
        try await local.commit(state, over: taken, report: report)
        return report
    }

    /// Every remote change after the cursor (from 0 again when the cursor expired: then an
    /// entry the server no longer has was deleted there long ago, and goes here too unless it
    /// was edited here since, which beats the delete).
    private func pull(into state: inout SyncSnapshot, report: inout SyncReport) async throws {
        var seen: Set<UUID> = []
        defer {
            if report.resynced {
                for id in Set(state.bases.keys).subtracting(seen) {
                    state.bases[id] = nil
                    if !state.pending.contains(id) { state.records[id] = nil }
                }
            }
        }
        while true {
            let page: RemotePage
            do {
                page = try await remote.pull(after: state.cursor)
            } catch let error {
                guard error == .cursorExpired, !report.resynced else { throw error }
                report.resynced = true
                state.cursor = 0
                continue
            }
            for entry in page.entries {
                seen.insert(entry.record.id)
                if take(entry, into: &state, report: &report) { report.received += 1 }
            }
            state.cursor = max(state.cursor, page.entries.last?.sequence ?? page.head)
            if !page.hasMore { return }
        }
    }

    /// Folds one remote entry into the local state; true when the local entry changed.
    @discardableResult
    private func take(_ entry: RemoteEntry, into state: inout SyncSnapshot, report: inout SyncReport) -> Bool {
        let id = entry.record.id
        if let base = state.bases[id] {
            if base.sequence >= entry.sequence { return false }
            // Versions only grow along an entry's sequences (each write is based on the one
            // before it), so an older or equal version under a newer sequence was served again.
            if entry.version < base.version || (entry.version == base.version && entry.record != base.record) {
                if !report.refusedReplays.contains(id) { report.refusedReplays.append(id) }
                return false
            }
        }
        var before = state.records[id]
        let base = state.bases[id]?.record
        state.bases[id] = entry
        if before == nil, let twin = Self.unsentTwin(of: entry.record, in: state) {
            // The same key added here too, not sent yet: one entry, under the id the server has.
            state.records[twin.id] = nil
            state.pending.remove(twin.id)
            state.pending.insert(id)
            before = SyncRecord(
                id: id, key: twin.key, counter: twin.counter, issuer: twin.issuer, name: twin.name, note: twin.note,
                isFavorite: twin.isFavorite, groups: twin.groups, position: twin.position, isDeleted: twin.isDeleted)
            report.mergedAdds += 1
        }
        guard let mine = before, state.pending.contains(id) else {
            state.records[id] = entry.record
            return before != entry.record
        }
        let merge = SyncMerge.merge(base: base, local: mine, remote: entry.record)
        state.records[id] = merge.merged
        if merge.merged == entry.record { state.pending.remove(id) }
        if let copy = merge.conflictCopy, state.records[copy.id] == nil {
            state.records[copy.id] = copy
            state.pending.insert(copy.id)
            report.conflictCopies.append(copy.id)
        }
        return merge.merged != mine
    }

    /// A live entry added here and never sent, with the key of `record` (a new remote entry).
    private static func unsentTwin(of record: SyncRecord, in state: SyncSnapshot) -> SyncRecord? {
        guard !record.isDeleted.value else { return nil }
        return state.pending
            .compactMap { state.bases[$0] == nil ? state.records[$0] : nil }
            .filter { !$0.isDeleted.value && $0.key.value == record.key.value }
            .min { $0.id.uuidString < $1.id.uuidString }
    }

    /// Pushes what is pending; a conflict is merged and pushed again, a few rounds at most.
    private func push(from state: inout SyncSnapshot, report: inout SyncReport) async throws {
        for _ in 0..<Self.pushRounds {
            let ids = state.pending.sorted { $0.uuidString < $1.uuidString }
            if ids.isEmpty { return }
            for batch in stride(from: 0, to: ids.count, by: Self.pushSize).map({ Array(ids[$0..<min($0 + Self.pushSize, ids.count)]) }) {
                let changes = batch.compactMap { id in
                    state.records[id].map {
                        RemoteChange(record: $0, basedOn: state.bases[id]?.sequence ?? 0, version: (state.bases[id]?.version ?? 0) + 1)
                    }
                }
                let results = try await remote.push(changes)
                for (change, result) in zip(changes, results) {
                    switch result {
                    case .applied(let sequence):
                        state.bases[change.record.id] = RemoteEntry(sequence: sequence, record: change.record, version: change.version)
                        state.pending.remove(change.record.id)
                        report.sent += 1
                    case .conflict(let current):
                        take(current, into: &state, report: &report)
                    }
                }
            }
        }
        if !state.pending.isEmpty { throw SyncError.stillConflicting }
    }
}
