import Domain
import Foundation
import Testing

/// The behaviour every `SyncRemote` must have, for the sync rules to hold: run against
/// `InMemorySyncRemote` in Domain's tests and against the real client talking to a real
/// `tokens-server` in Tests-Integration, so the fake cannot drift from the server. Each check
/// takes a remote whose account is empty.
public enum SyncRemoteContract {
    /// Every check, by name, for a parameterised test.
    public static let checks: [(String, @Sendable (any SyncRemote) async throws -> Void)] = [
        ("pushed records come back in sequence order, exactly", pushThenPull),
        ("a retry of the record stored is applied again, at its sequence", retryIsApplied),
        ("a change based on an old sequence meets the current entry", staleBaseConflicts),
        ("a deletion travels as a tombstone", tombstones),
        ("one entry twice in one push: decided in order", sameEntryTwice),
        ("a pull after the head is empty and says the head", pullAtHead),
        ("each entry comes back with the version it was pushed with", versions),
    ]

    /// The clauses' names, for a parameterised test that shows them.
    public static var names: [String] { checks.map(\.0) }

    /// The clause called `name`.
    public static func check(named name: String) -> @Sendable (any SyncRemote) async throws -> Void {
        if let clause = checks.first(where: { $0.0 == name }) { return clause.1 }
        return { @Sendable _ in Issue.record("no clause \(name)") }
    }

    static func id(_ n: UInt8) -> UUID { UUID(uuid: (0xC0, 0, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, n)) }

    public static func pushThenPull(_ remote: any SyncRemote) async throws {
        let first = SyncRecord.sample(id(1), issuer: "Ünïcode ✓", groups: ["work", "2fa"])
        let second = SyncRecord.sample(
            id(2), secret: Array(repeating: 7, count: 64), kind: .steam, note: String(repeating: "n", count: 900))
        let results = try await remote.push([RemoteChange(record: first, basedOn: 0), RemoteChange(record: second, basedOn: 0)])
        guard case .applied(let one) = results.first, case .applied(let two) = results.last, results.count == 2 else {
            Issue.record("not applied: \(results)")
            return
        }
        #expect(one > 0 && two > one)
        let page = try await remote.pull(after: 0)
        #expect(page.entries == [RemoteEntry(sequence: one, record: first), RemoteEntry(sequence: two, record: second)])
        #expect(page.head == two && !page.hasMore)
        #expect(try await remote.pull(after: one).entries.map(\.record) == [second])
    }

    public static func retryIsApplied(_ remote: any SyncRemote) async throws {
        let record = SyncRecord.sample(id(3))
        let first = try await remote.push([RemoteChange(record: record, basedOn: 0)])
        let again = try await remote.push([RemoteChange(record: record, basedOn: 0)])
        #expect(first == again)
        #expect(try await remote.pull(after: 0).entries.count == 1)
    }

    public static func staleBaseConflicts(_ remote: any SyncRemote) async throws {
        let record = SyncRecord.sample(id(4))
        guard case .applied(let base) = try await remote.push([RemoteChange(record: record, basedOn: 0)]).first else {
            Issue.record("not applied")
            return
        }
        let mine = record.noted("mine", at: 2_000)
        guard case .applied(let next) = try await remote.push([RemoteChange(record: mine, basedOn: base)]).first else {
            Issue.record("an edit based on the current sequence was not applied")
            return
        }
        let theirs = record.noted("theirs", at: 2_100)
        #expect(
            try await remote.push([RemoteChange(record: theirs, basedOn: base)]) == [
                .conflict(current: RemoteEntry(sequence: next, record: mine))
            ])
        #expect(try await remote.pull(after: 0).entries.map(\.record) == [mine])
    }

    public static func tombstones(_ remote: any SyncRemote) async throws {
        let record = SyncRecord.sample(id(5))
        guard case .applied(let base) = try await remote.push([RemoteChange(record: record, basedOn: 0)]).first else {
            Issue.record("not applied")
            return
        }
        let gone = record.deleted(at: 3_000)
        guard case .applied = try await remote.push([RemoteChange(record: gone, basedOn: base)]).first else {
            Issue.record("the deletion was not applied")
            return
        }
        let entries = try await remote.pull(after: 0).entries
        #expect(entries.map(\.record) == [gone] && entries.first?.record.isDeleted.value == true)
    }

    public static func sameEntryTwice(_ remote: any SyncRemote) async throws {
        let record = SyncRecord.sample(id(6))
        let other = record.noted("second", at: 4_000)
        let results = try await remote.push([RemoteChange(record: record, basedOn: 0), RemoteChange(record: other, basedOn: 0)])
        guard case .applied(let sequence) = results.first, results.count == 2 else {
            Issue.record("not applied: \(results)")
            return
        }
        #expect(results.last == .conflict(current: RemoteEntry(sequence: sequence, record: record)))
    }

    public static func versions(_ remote: any SyncRemote) async throws {
        let record = SyncRecord.sample(id(8))
        guard case .applied(let base) = try await remote.push([RemoteChange(record: record, basedOn: 0, version: 1)]).first else {
            Issue.record("not applied")
            return
        }
        let edited = record.noted("edited", at: 5_000)
        guard case .applied(let next) = try await remote.push([RemoteChange(record: edited, basedOn: base, version: 2)]).first else {
            Issue.record("the edit was not applied")
            return
        }
        #expect(try await remote.pull(after: 0).entries == [RemoteEntry(sequence: next, record: edited, version: 2)])
        // The first version again, now stale: the current entry answers, with its version.
        #expect(
            try await remote.push([RemoteChange(record: record, basedOn: base, version: 1)])
                == [.conflict(current: RemoteEntry(sequence: next, record: edited, version: 2))])
    }

    public static func pullAtHead(_ remote: any SyncRemote) async throws {
        let empty = try await remote.pull(after: 0)
        #expect(empty.entries.isEmpty && empty.head == 0 && !empty.hasMore)
        let results = try await remote.push([RemoteChange(record: SyncRecord.sample(id(7)), basedOn: 0)])
        guard case .applied(let head) = results.first else {
            Issue.record("not applied")
            return
        }
        let after = try await remote.pull(after: head)
        #expect(after.entries.isEmpty && after.head == head && !after.hasMore)
    }
}
