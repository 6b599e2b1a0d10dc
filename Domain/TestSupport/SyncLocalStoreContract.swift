import Domain
import Foundation
import Testing

/// A machine's side of sync as a contract subject: its store, and the local changes a user makes
/// (through whatever the store records them from: a record edit for the fake, the vault's data
/// source for the real store).
public protocol SyncLocalStoreSubject: Sendable {
    var store: any SyncLocalStore { get }
    /// Adds a new account here; returns its id.
    func add(_ number: Int) async throws -> UUID
    /// Changes an account's note here.
    func edit(_ id: UUID, note: String) async throws
    /// Deletes an account here.
    func delete(_ id: UUID) async throws
}

/// The behaviour every `SyncLocalStore` must have for the sync rules to hold: run against
/// `InMemorySyncLocalStore` in Domain's tests and against the vault's store in Data's, so the
/// fake cannot drift from the vault. Each check takes a subject with no entries.
public enum SyncLocalStoreContract {
    public static let checks: [(String, @Sendable (any SyncLocalStoreSubject) async throws -> Void)] = [
        ("a local change is in the snapshot, pending, with its value", localChangesPending),
        ("a round's outcome is what the next snapshot holds", outcomeCommitted),
        ("a change made while the round was away survives it, pending, over the new base", changeDuringRound),
        ("an entry the outcome no longer has is gone", removedByRound),
        ("a round may start quiet only when nothing waits to be sent or confirmed", quietStart),
        ("entries read by id are the snapshot's; a partial snapshot holds what changed since the last round", entriesByID),
    ]

    public static var names: [String] { checks.map(\.0) }

    public static func check(named name: String) -> @Sendable (any SyncLocalStoreSubject) async throws -> Void {
        if let clause = checks.first(where: { $0.0 == name }) { return clause.1 }
        return { @Sendable _ in Issue.record("no clause \(name)") }
    }

    public static func localChangesPending(_ subject: any SyncLocalStoreSubject) async throws {
        let one = try await subject.add(1)
        let two = try await subject.add(2)
        try await subject.edit(one, note: "edited")
        try await subject.delete(two)
        let snapshot = try await subject.store.snapshot()
        #expect(snapshot.pending == [one, two])
        #expect(snapshot.records[one]?.note.value == "edited")
        #expect(snapshot.records[two]?.isDeleted.value == true)
        #expect(try await subject.store.pendingCount() == 2)
    }

    public static func entriesByID(_ subject: any SyncLocalStoreSubject) async throws {
        let one = try await subject.add(1)
        let two = try await subject.add(2)
        let stranger = UUID(uuidString: "00000000-0000-4000-8000-0000000000ff")!
        let taken = try await subject.store.snapshot()
        let part = try await subject.store.entries([one, stranger])
        #expect(part.part == [one, stranger])
        #expect(part.records == [one: taken.records[one]!])
        #expect(part.pending == [one] && part.bases.isEmpty)
        try await subject.store.commit(sentAll(taken, editing: one), over: taken)
        try await subject.edit(two, note: "after the round")
        // A store may always answer with a whole round; one that answers holds exactly this.
        guard let partial = try await subject.store.partialSnapshot() else { return }
        #expect(partial.part == [two])
        #expect(partial.records.keys.sorted { $0.uuidString < $1.uuidString } == [two])
        #expect(partial.records[two]?.note.value == "after the round")
        #expect(partial.pending == [two] && partial.cursor == 99)
    }

    /// The outcome of a round that sent every pending record and took a remote edit of `id`.
    static func sentAll(_ taken: SyncSnapshot, editing id: UUID) -> SyncSnapshot {
        var outcome = taken
        for (index, key) in taken.records.keys.sorted(by: { $0.uuidString < $1.uuidString }).enumerated() {
            outcome.bases[key] = RemoteEntry(sequence: Int64(index + 1), record: taken.records[key]!, version: 1)
        }
        var remote = taken.records[id]!
        remote.issuer = Stamped(
            "Renamed elsewhere",
            changedAt: HybridTimestamp(
                milliseconds: remote.issuer.changedAt.milliseconds + 60_000,
                device: UUID(uuidString: "00000000-0000-4000-8000-0000000000ee")!))
        outcome.records[id] = remote
        outcome.bases[id] = RemoteEntry(sequence: 99, record: remote, version: 2)
        outcome.pending = []
        outcome.cursor = 99
        return outcome
    }

    public static func outcomeCommitted(_ subject: any SyncLocalStoreSubject) async throws {
        let one = try await subject.add(1)
        _ = try await subject.add(2)
        let taken = try await subject.store.snapshot()
        let outcome = sentAll(taken, editing: one)
        try await subject.store.commit(outcome, over: taken)
        let now = try await subject.store.snapshot()
        #expect(now.records == outcome.records && now.bases == outcome.bases)
        #expect(now.pending.isEmpty && now.cursor == 99)
        #expect(try await subject.store.pendingCount() == 0)
    }

    public static func changeDuringRound(_ subject: any SyncLocalStoreSubject) async throws {
        let one = try await subject.add(1)
        let taken = try await subject.store.snapshot()
        try await subject.edit(one, note: "meanwhile")
        let outcome = sentAll(taken, editing: one)
        try await subject.store.commit(outcome, over: taken)
        let now = try await subject.store.snapshot()
        #expect(now.pending == [one])
        #expect(now.records[one]?.note.value == "meanwhile")
        #expect(now.bases[one] == outcome.bases[one])
        #expect(now.cursor == 99)
    }

    public static func removedByRound(_ subject: any SyncLocalStoreSubject) async throws {
        let one = try await subject.add(1)
        let two = try await subject.add(2)
        let taken = try await subject.store.snapshot()
        var outcome = sentAll(taken, editing: one)
        outcome.records[two] = nil
        outcome.bases[two] = nil
        try await subject.store.commit(outcome, over: taken)
        let now = try await subject.store.snapshot()
        #expect(now.records[two] == nil && now.bases[two] == nil && !now.pending.contains(two))
        #expect(now.records[one] == outcome.records[one])
    }

    public static func quietStart(_ subject: any SyncLocalStoreSubject) async throws {
        let one = try await subject.add(1)
        _ = try await subject.add(2)
        #expect(try await subject.store.quietStart() == nil, "changes wait to be sent")
        let taken = try await subject.store.snapshot()
        var pushed = sentAll(taken, editing: one)
        pushed.cursor = 1
        try await subject.store.commit(pushed, over: taken)
        #expect(try await subject.store.quietStart() == nil, "pushes not seen back yet")
        let confirmed = try await subject.store.snapshot()
        var seen = confirmed
        seen.cursor = 99
        try await subject.store.commit(seen, over: confirmed)
        #expect(try await subject.store.quietStart() == SyncQuietStart(cursor: 99, generation: nil))
        var report = SyncReport()
        report.clockOffset = ClockOffset(seconds: 2, uncertainty: 0.5, measuredAt: Date(timeIntervalSince1970: 1_800_000_000))
        try await subject.store.commitQuiet(report)
        #expect(try await subject.store.quietStart() == SyncQuietStart(cursor: 99, generation: nil))
        try await subject.edit(one, note: "later")
        #expect(try await subject.store.quietStart() == nil, "a change made since")
        // A change made while a round was away keeps the next round whole.
        let again = try await subject.store.snapshot()
        try await subject.delete(one)
        var outcome = again
        outcome.pending = []
        outcome.bases[one] = RemoteEntry(sequence: 99, record: again.records[one]!, version: 3)
        try await subject.store.commit(outcome, over: again)
        #expect(try await subject.store.quietStart() == nil)
    }
}
