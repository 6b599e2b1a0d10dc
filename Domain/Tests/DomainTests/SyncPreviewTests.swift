import Domain
import DomainTestSupport
import Foundation
import Testing

/// `tokens sync --dry-run` in Domain: the preview says what a sync would receive, send and merge,
/// and writes nothing here or on the server.
@Suite("Sync preview")
struct SyncPreviewTests {
    typealias Client = SyncUseCaseTests.Client
    static func id(_ n: UInt8) -> UUID { SyncUseCaseTests.id(n) }

    /// A laptop and a desktop, synced, holding accounts 1...count the laptop added.
    static func twoMachinesHolding(_ count: UInt8) async throws -> (InMemorySyncRemote, Client, Client) {
        let remote = InMemorySyncRemote()
        let (laptop, desktop) = (Client(1, remote: remote), Client(2, remote: remote))
        for n in UInt8(1)...count { await laptop.add(id(n), secret: n, at: 1_000) }
        for client in [laptop, desktop] { _ = try await client.sync() }
        return (remote, laptop, desktop)
    }

    @Test("what would be received, sent and merged, named by field; nothing written here or on the server; the sync then does it")
    func receivedSentMerged() async throws {
        let (remote, laptop, desktop) = try await Self.twoMachinesHolding(3)
        // Elsewhere: a note on 1, a name on 3, account 4 added, account 2 deleted.
        await laptop.store.change(Self.id(1)) { $0?.note = Stamped("from the laptop", changedAt: laptop.stamp(2_000)) }
        await laptop.store.change(Self.id(3)) { $0?.name = Stamped("me@laptop", changedAt: laptop.stamp(2_000)) }
        await laptop.add(Self.id(4), secret: 4, at: 2_000)
        await laptop.store.change(Self.id(2)) { $0?.isDeleted = Stamped(true, changedAt: laptop.stamp(2_000)) }
        _ = try await laptop.sync()
        // Here: the issuer of 3 (merged with the laptop's name), and account 5 added.
        await desktop.store.change(Self.id(3)) { $0?.issuer = Stamped("Desk Inc", changedAt: desktop.stamp(2_100)) }
        await desktop.add(Self.id(5), secret: 5, at: 2_100)
        let (records, stored) = (await desktop.records(), await remote.stored)

        let preview = try await DefaultSyncUseCase(local: desktop.store, remote: remote).preview()

        let (recordsAfter, storedAfter) = (await desktop.records(), await remote.stored)
        #expect(recordsAfter == records && storedAfter == stored, "a dry run writes nothing")
        #expect(preview.received.map(\.id) == [Self.id(1), Self.id(2), Self.id(4)])
        #expect(preview.received[0].fields == [.note] && !preview.received[0].isNew)
        #expect(preview.received[1].isDeleted && preview.received[2].isNew)
        #expect(preview.sent.map(\.id) == [Self.id(5)] && preview.sent[0].isNew)
        #expect(preview.merged.map(\.id) == [Self.id(3)] && preview.merged[0].fields == [.name])
        #expect(preview.report.received == 4 && preview.report.sent == 0)

        let report = try await desktop.sync()
        #expect(report.received == preview.report.received && report.sent == preview.sent.count + preview.merged.count)
        #expect(try await DefaultSyncUseCase(local: desktop.store, remote: remote).preview().isEmpty)
    }

    @Test("a secret changed elsewhere is named as the secret, never shown; a local deletion is a deletion to send")
    func secretNamedDeletionSent() async throws {
        let (remote, laptop, desktop) = try await Self.twoMachinesHolding(2)
        await laptop.changeKey(Self.id(1), secret: 9, at: 2_000)
        _ = try await laptop.sync()
        await desktop.store.change(Self.id(2)) { $0?.isDeleted = Stamped(true, changedAt: desktop.stamp(2_000)) }

        let preview = try await DefaultSyncUseCase(local: desktop.store, remote: remote).preview()

        #expect(preview.received.map(\.fields) == [[.secret]])
        #expect(preview.sent.map(\.id) == [Self.id(2)] && preview.sent[0].isDeleted)
    }
}
