import Domain
import DomainTestSupport
import Foundation
import Synchronization
import Testing

/// Sync end to end in memory: clients with their own local store, one in-memory server (the
/// fake the server's contract suite keeps honest), the real merge and use case.
@Suite("Sync use case")
struct SyncUseCaseTests {
    /// One machine: its store, device id and clock.
    final class Client: @unchecked Sendable {
        let store = InMemorySyncLocalStore()
        let device: UUID
        let remote: InMemorySyncRemote
        var time: Int64 = 0

        init(_ n: UInt8, remote: InMemorySyncRemote) {
            device = UUID(uuid: (0, 0, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0xDE, n))
            self.remote = remote
        }

        func stamp(_ now: Int64) -> HybridTimestamp { HybridTimestamp(milliseconds: now, device: device) }

        func sync() async throws -> SyncReport { try await DefaultSyncUseCase(local: store, remote: remote).execute() }

        func add(_ id: UUID, secret: UInt8, at now: Int64, position: FractionalPosition = FractionalPosition("U")!) async {
            let at = stamp(now)
            let record = SyncRecord(
                id: id, key: Stamped(SyncMergeTests.key(secret), changedAt: at), counter: 0, issuer: Stamped("issuer", changedAt: at),
                name: Stamped("me", changedAt: at), note: Stamped("", changedAt: at), isFavorite: Stamped(false, changedAt: at),
                groups: Stamped([], changedAt: at), position: Stamped(position, changedAt: at), isDeleted: Stamped(false, changedAt: at))
            await store.change(id) { $0 = record }
        }

        func records() async -> [UUID: SyncRecord] { await store.state.records }

        /// The entry's secret changed here, as the vault records it (saying which key it replaced).
        func changeKey(_ id: UUID, secret: UInt8, at now: Int64) async {
            let at = stamp(now)
            await store.change(id) { record in
                guard var changed = record else { return }
                changed.keyHistory = [changed.key.changedAt] + changed.keyHistory
                changed.key = Stamped(SyncMergeTests.key(secret), changedAt: at)
                record = changed
            }
        }
    }

    static func id(_ n: UInt8) -> UUID { UUID(uuid: (0, 0, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, n)) }

    /// A laptop, a desktop and a phone, all synced, all holding the account the laptop added.
    static func threeMachinesHoldingOne(on remote: InMemorySyncRemote) async throws -> (Client, Client, Client) {
        let (laptop, desktop, phone) = (Client(1, remote: remote), Client(2, remote: remote), Client(3, remote: remote))
        await laptop.add(id(1), secret: 1, at: 1_000)
        for client in [laptop, desktop, phone] { _ = try await client.sync() }
        return (laptop, desktop, phone)
    }

    @Test("an account added on one machine reaches the other; an edit on each, of different fields, ends the same on both")
    func twoMachines() async throws {
        let remote = InMemorySyncRemote()
        let (laptop, desktop) = (Client(1, remote: remote), Client(2, remote: remote))
        await laptop.add(Self.id(1), secret: 1, at: 1_000)
        #expect(try await laptop.sync().sent == 1)
        #expect(try await desktop.sync().received == 1)
        await laptop.store.change(Self.id(1)) { $0?.note = Stamped("from the laptop", changedAt: laptop.stamp(2_000)) }
        await desktop.store.change(Self.id(1)) { $0?.name = Stamped("me@desk", changedAt: desktop.stamp(2_100)) }
        _ = try await laptop.sync()
        _ = try await desktop.sync()
        _ = try await laptop.sync()
        let (mine, theirs) = (await laptop.records(), await desktop.records())
        #expect(mine == theirs && mine[Self.id(1)]?.note.value == "from the laptop" && mine[Self.id(1)]?.name.value == "me@desk")
        #expect(await laptop.store.state.pending.isEmpty)
        #expect(await desktop.store.state.pending.isEmpty)
    }

    @Test("codes used on one machine survive a delete made without them, after the server lost their version and served one with fewer")
    func codesUsedSurviveLostVersion() async throws {
        let remote = InMemorySyncRemote()
        let (laptop, desktop, phone) = try await Self.threeMachinesHoldingOne(on: remote)
        await desktop.store.change(Self.id(1)) { $0?.counter = 3 }
        #expect(try await desktop.sync().sent == 1)
        _ = try await desktop.sync()
        #expect(await desktop.store.state.pushedOver.isEmpty, "the desktop saw its version back from the server")
        await phone.store.change(Self.id(1)) { $0?.isDeleted = Stamped(true, changedAt: phone.stamp(3_000)) }
        // The server loses the desktop's version; the laptop sends its own (no codes used) over it,
        // then the phone its delete: a later version with fewer codes than the desktop saw.
        await remote.poison(Self.id(1))
        #expect(try await laptop.sync().unreadable == [Self.id(1)])
        #expect(try await phone.sync().sent == 1)
        #expect(await remote.stored.map { [$0.record.isDeleted.value ? 1 : 0, Int($0.record.counter)] } == [[1, 0]])
        for client in [desktop, laptop, phone, desktop] { _ = try await client.sync() }
        for client in [laptop, desktop, phone] {
            let record = await client.records()[Self.id(1)]
            #expect(record?.isDeleted.value == false, "the delete did not see the codes used")
            #expect(record?.counter == 3)
        }
    }

    @Test("a key changed on both machines ends with the later one in the entry and the other as a copy, on both")
    func keyConflict() async throws {
        let remote = InMemorySyncRemote()
        let (laptop, desktop) = (Client(1, remote: remote), Client(2, remote: remote))
        await laptop.add(Self.id(1), secret: 1, at: 1_000)
        _ = try await laptop.sync()
        _ = try await desktop.sync()
        await laptop.store.change(Self.id(1)) { $0?.key = Stamped(SyncMergeTests.key(2), changedAt: laptop.stamp(2_000)) }
        await desktop.store.change(Self.id(1)) { $0?.key = Stamped(SyncMergeTests.key(3), changedAt: desktop.stamp(3_000)) }
        _ = try await laptop.sync()
        let report = try await desktop.sync()
        _ = try await laptop.sync()
        #expect(report.conflictCopies.count == 1)
        let records = await laptop.records()
        #expect(records == (await desktop.records()))
        #expect(Set(records.values.map(\.key.value)) == [SyncMergeTests.key(2), SyncMergeTests.key(3)])
        #expect(records[Self.id(1)]?.key.value == SyncMergeTests.key(3))
    }

    @Test("the same key added on two machines before either synced ends as one entry, under the id the server has")
    func sameKeyAddedTwice() async throws {
        let remote = InMemorySyncRemote()
        let (laptop, desktop) = (Client(1, remote: remote), Client(2, remote: remote))
        await laptop.add(Self.id(1), secret: 9, at: 1_000)
        await desktop.add(Self.id(2), secret: 9, at: 1_100)
        await desktop.store.change(Self.id(2)) { $0?.note = Stamped("desk note", changedAt: desktop.stamp(1_200)) }
        _ = try await laptop.sync()
        #expect(try await desktop.sync().mergedAdds == 1)
        _ = try await laptop.sync()
        let (records, laptops) = (await desktop.records(), await laptop.records())
        #expect(Array(records.keys) == [Self.id(1)] && records == laptops)
        #expect(records[Self.id(1)]?.note.value == "desk note")
        #expect(await remote.stored.map(\.record.id) == [Self.id(1)])
    }

    /// The server as a machine saw it a moment before another machine pushed: its first pull
    /// finds nothing new; everything else goes to the server.
    actor StalePullRemote: SyncRemote {
        let server: InMemorySyncRemote
        var stale = true

        init(_ server: InMemorySyncRemote) { self.server = server }

        func pull(after cursor: Int64) async throws(SyncError) -> RemotePage {
            guard stale else { return try await server.pull(after: cursor) }
            stale = false
            return RemotePage(entries: [], head: cursor, hasMore: false)
        }

        func push(_ changes: [RemoteChange]) async throws(SyncError) -> [RemotePushResult] { try await server.push(changes) }
    }

    @Test(
        "the same key added on two machines, each pushed before seeing the other's: one entry stays on both, with the larger HOTP counter")
    func sameKeyPushedTwice() async throws {
        let remote = InMemorySyncRemote()
        let (laptop, desktop) = (Client(1, remote: remote), Client(2, remote: remote))
        await laptop.add(Self.id(2), secret: 9, at: 1_000)
        await laptop.store.change(Self.id(2)) { $0?.counter = 5 }
        await desktop.add(Self.id(1), secret: 9, at: 1_100)
        _ = try await laptop.sync()
        // The desktop pulled just before the laptop pushed, then pushed its own.
        _ = try await DefaultSyncUseCase(local: desktop.store, remote: StalePullRemote(remote)).execute()
        #expect(await remote.stored.filter { !$0.record.isDeleted.value }.count == 2)
        #expect(try await laptop.sync().mergedAdds == 1)
        _ = try await desktop.sync()
        _ = try await laptop.sync()
        let (mine, theirs) = (await laptop.records(), await desktop.records())
        #expect(mine == theirs)
        let live = mine.values.filter { !$0.isDeleted.value }
        #expect(live.map(\.id) == [Self.id(1)] && live.first?.counter == 5)
        #expect(await remote.stored.filter { !$0.record.isDeleted.value }.map(\.record.id) == [Self.id(1)])
        #expect(await laptop.store.state.pending.isEmpty)
        #expect(await desktop.store.state.pending.isEmpty)
    }

    @Test("twins one machine made on purpose (add --allow-duplicate) are left alone")
    func deliberateTwins() async throws {
        let remote = InMemorySyncRemote()
        let (laptop, desktop) = (Client(1, remote: remote), Client(2, remote: remote))
        await laptop.add(Self.id(1), secret: 9, at: 1_000)
        await laptop.add(Self.id(2), secret: 9, at: 1_000)
        _ = try await laptop.sync()
        #expect(try await desktop.sync().mergedAdds == 0)
        #expect(await desktop.records().values.filter { !$0.isDeleted.value }.count == 2)
    }

    @Test(
        """
        found by the lifecycle model check: an account folded into another machine's copy, \
        then sent again from a restored vault while that copy was deleted, and the copy revived by an edit: one entry stays
        """)
    func restoredTwinOfRevivedCopy() async throws {
        let remote = InMemorySyncRemote()
        let (laptop, desktop, phone) = (Client(1, remote: remote), Client(2, remote: remote), Client(3, remote: remote))
        await laptop.add(Self.id(2), secret: 9, at: 1_000)
        await desktop.add(Self.id(3), secret: 9, at: 1_000)
        let copy = await laptop.store.state
        _ = try await desktop.sync()
        // The laptop folds its unsent entry into the desktop's, under the desktop's key stamp.
        #expect(try await laptop.sync().mergedAdds == 1)
        #expect(await laptop.records()[Self.id(3)]?.key.changedAt == desktop.stamp(1_000))
        for client in [desktop, phone] { _ = try await client.sync() }
        await desktop.store.change(Self.id(3)) { $0?.issuer = Stamped("edited on the desk", changedAt: desktop.stamp(3_000)) }
        await phone.store.change(Self.id(3)) { $0?.isDeleted = Stamped(true, changedAt: phone.stamp(2_000)) }
        _ = try await phone.sync()
        // The laptop's vault comes back from the copy: its entry unsent, with the same key stamp;
        // the desktop's copy is deleted on the server, so nothing folds it on the way up.
        await laptop.store.restore(copy)
        _ = try await laptop.sync()
        for client in [desktop, phone, laptop, desktop, phone, laptop] { _ = try await client.sync() }
        let records = await laptop.records()
        let (desks, phones) = (await desktop.records(), await phone.records())
        #expect(desks == records && phones == records)
        let live = records.values.filter { !$0.isDeleted.value }
        #expect(live.count == 1 && live.first?.key.value == SyncMergeTests.key(9))
    }

    @Test(
        """
        found by the lifecycle model check: an account folded into another machine's entry, that entry then garbage on the \
        server and that machine's vault restored to before it: the folded entry comes back
        """)
    func foldedTwinRevivedWhenKeptOneIsLost() async throws {
        let remote = InMemorySyncRemote()
        let (laptop, desktop) = (Client(1, remote: remote), Client(2, remote: remote))
        let empty = await desktop.store.state
        await laptop.add(Self.id(3), secret: 9, at: 1_000)
        await desktop.add(Self.id(2), secret: 9, at: 1_000)
        _ = try await laptop.sync()
        // The desktop pulled just before the laptop pushed, then pushed its own: twins.
        _ = try await DefaultSyncUseCase(local: desktop.store, remote: StalePullRemote(remote)).execute()
        // The desktop folds them: its entry (the smaller id) stays, the laptop's is deleted.
        #expect(try await desktop.sync().mergedAdds == 1)
        #expect(await remote.stored.filter { !$0.record.isDeleted.value }.map(\.record.id) == [Self.id(2)])
        // A device token's holder writes garbage over the kept entry; the desktop's vault goes back.
        await remote.poison(Self.id(2))
        await desktop.store.restore(empty)
        #expect(try await laptop.sync().unreadable == [Self.id(2)])
        for client in [desktop, laptop, desktop] { _ = try await client.sync() }
        let records = await laptop.records()
        #expect(await desktop.records() == records)
        let live = records.values.filter { !$0.isDeleted.value }
        #expect(live.map(\.id) == [Self.id(3)] && live.first?.key.value == SyncMergeTests.key(9))
    }

    @Test("a user's delete of an account stays beside an entry the server serves unreadable")
    func userDeleteStaysBesideGarbage() async throws {
        let remote = InMemorySyncRemote()
        let (laptop, phone) = (Client(1, remote: remote), Client(3, remote: remote))
        await laptop.add(Self.id(2), secret: 8, at: 1_000)
        await laptop.add(Self.id(3), secret: 9, at: 1_000)
        _ = try await laptop.sync()
        await laptop.store.change(Self.id(3)) { $0?.isDeleted = Stamped(true, changedAt: laptop.stamp(2_000)) }
        _ = try await laptop.sync()
        await remote.poison(Self.id(2))
        // The phone never held either: the garbage could be anything, the delete is the user's.
        #expect(try await phone.sync().unreadable == [Self.id(2)])
        #expect(await phone.records()[Self.id(3)]?.isDeleted.value == true)
        #expect(await phone.store.state.pending.isEmpty)
    }

    @Test("offline: the sync fails with its reason and changes nothing; the pending change goes up once the server is back")
    func offline() async throws {
        let remote = InMemorySyncRemote()
        let laptop = Client(1, remote: remote)
        await laptop.add(Self.id(1), secret: 1, at: 1_000)
        await remote.failNext(with: .offline)
        await #expect(throws: SyncError.offline) { try await laptop.sync() }
        #expect(await laptop.store.state.pending == [Self.id(1)])
        #expect(await remote.stored.isEmpty)
        #expect(try await laptop.sync().sent == 1)
        #expect(await remote.stored.map(\.record.id) == [Self.id(1)])
    }

    @Test(
        "each push carries its base's version plus one; an older version the server serves again is refused, reported, and overwritten by the machine's own above it"
    )
    func replay() async throws {
        let remote = InMemorySyncRemote()
        let (laptop, desktop) = (Client(1, remote: remote), Client(2, remote: remote))
        await laptop.add(Self.id(1), secret: 1, at: 1_000)
        _ = try await laptop.sync()
        _ = try await desktop.sync()
        await laptop.store.change(Self.id(1)) { $0?.note = Stamped("rotated the secret's recovery codes", changedAt: laptop.stamp(2_000)) }
        _ = try await laptop.sync()
        #expect(await remote.stored.map(\.version) == [2])
        _ = try await desktop.sync()
        let seen = await desktop.records()
        // A dishonest (or rolled-back) server serves the first version again as a new change.
        await remote.replayFirstVersion(of: Self.id(1))
        let report = try await desktop.sync()
        #expect(report.refusedReplays == [Self.id(1)] && report.received == 0 && report.resent == 1)
        #expect(await desktop.records() == seen)
        #expect(await remote.stored.map(\.version) == [3], "the machine's own version went back, above the replayed one")
        #expect(await remote.stored.first?.record == seen[Self.id(1)])
        #expect(try await desktop.sync().refusedReplays.isEmpty)
        #expect(try await laptop.sync().refusedReplays.isEmpty)
        #expect(await laptop.records()[Self.id(1)]?.note.value == "rotated the secret's recovery codes")
    }

    @Test(
        "found by the lifecycle model check: a replay at a sequence past the server's head does not take the cursor there, so later real changes still arrive"
    )
    func madeUpSequencePastTheHead() async throws {
        let remote = InMemorySyncRemote(pageSize: 3)
        let (laptop, desktop) = (Client(1, remote: remote), Client(2, remote: remote))
        await laptop.add(Self.id(1), secret: 1, at: 1_000)
        _ = try await laptop.sync()
        // The head is 1; the server serves entry 1's first version again at a made-up 5.
        await remote.replayFirstVersion(of: Self.id(1), atMadeUpSequence: 5)
        _ = try await desktop.sync()
        for n in UInt8(2)...5 { await laptop.add(Self.id(n), secret: n, at: 2_000) }
        _ = try await laptop.sync()
        _ = try await desktop.sync()
        #expect(await desktop.records() == laptop.records(), "sequences 2 to 5 reached the desktop")
    }

    @Test("a later version written over a replayed older one keeps both machines' edits")
    func forkThroughAReplay() async throws {
        let remote = InMemorySyncRemote()
        let (laptop, desktop) = (Client(1, remote: remote), Client(2, remote: remote))
        await laptop.add(Self.id(1), secret: 1, at: 1_000)
        _ = try await laptop.sync()
        _ = try await desktop.sync()
        await laptop.store.change(Self.id(1)) { $0?.note = Stamped("laptop's", changedAt: laptop.stamp(2_000)) }
        _ = try await laptop.sync()
        _ = try await laptop.sync()  // the push served back: nothing of it is awaited any more
        // The server serves the first version again; the desktop edits over it and pushes (its
        // version 2); the server replays the first again, and the desktop sends its own above
        // (version 3, still without the laptop's note).
        await remote.replayFirstVersion(of: Self.id(1))
        _ = try await desktop.sync()
        await desktop.store.change(Self.id(1)) { $0?.name = Stamped("me@desk", changedAt: desktop.stamp(3_000)) }
        _ = try await desktop.sync()
        await remote.replayFirstVersion(of: Self.id(1))
        _ = try await desktop.sync()
        _ = try await laptop.sync()
        _ = try await desktop.sync()
        let entry = await desktop.records()[Self.id(1)]
        #expect(entry?.note.value == "laptop's" && entry?.name.value == "me@desk")
        #expect(await desktop.records() == laptop.records())
    }

    @Test(
        "found by the lifecycle model check: codes used of a key another machine replaced meanwhile count on the copy that keeps that key")
    func counterFollowsItsKey() async throws {
        let remote = InMemorySyncRemote()
        let (laptop, desktop, phone) = try await Self.threeMachinesHoldingOne(on: remote)
        await desktop.store.change(Self.id(1)) { $0?.key = Stamped(SyncMergeTests.key(2), changedAt: desktop.stamp(2_000)) }
        _ = try await desktop.sync()
        _ = try await phone.sync()
        await laptop.store.change(Self.id(1)) { $0?.key = Stamped(SyncMergeTests.key(3), changedAt: laptop.stamp(3_000)) }
        _ = try await laptop.sync()
        // The phone, holding the desktop's key, uses three codes of it.
        await phone.store.change(Self.id(1)) { $0?.counter = 3 }
        _ = try await phone.sync()
        for client in [laptop, desktop, phone] { _ = try await client.sync() }
        let records = await phone.records().values.filter { !$0.isDeleted.value }
        #expect(records.count == 2)
        #expect(records.first { $0.key.value == SyncMergeTests.key(2) }?.counter == 3)
        #expect(await laptop.records() == phone.records())
    }

    @Test(
        """
        found by the lifecycle model check: codes used of a secret before replacing it here count on the copy of that secret \
        another machine's concurrent change left (sent before the codes were)
        """)
    func counterOfAReplacedKeyFollowsIt() async throws {
        let remote = InMemorySyncRemote()
        let (laptop, desktop, phone) = try await Self.threeMachinesHoldingOne(on: remote)
        await phone.changeKey(Self.id(1), secret: 2, at: 2_000)
        _ = try await phone.sync()
        // The phone uses three codes of its secret, then replaces it; the desktop, which never
        // saw the phone's secret, replaced the first one meanwhile and merges first.
        await phone.store.change(Self.id(1)) { $0?.counter = 3 }
        await phone.changeKey(Self.id(1), secret: 4, at: 4_000)
        await desktop.changeKey(Self.id(1), secret: 3, at: 3_000)
        _ = try await desktop.sync()
        for _ in 1...3 {
            for client in [phone, laptop, desktop] { _ = try await client.sync() }
        }
        let records = await laptop.records().values.filter { !$0.isDeleted.value }
        #expect(Set(records.map(\.key.value)) == [SyncMergeTests.key(2), SyncMergeTests.key(3), SyncMergeTests.key(4)])
        #expect(records.first { $0.key.value == SyncMergeTests.key(2) }?.counter == 3)
        for client in [desktop, phone] { #expect(await client.records() == laptop.records()) }
    }

    @Test(
        """
        found by the lifecycle model check: codes used of a secret another machine replaced while the server lost both \
        (restored from a backup) count on the copy that keeps that secret, whoever merges first
        """)
    func counterFollowsItsKeyThroughRestore() async throws {
        let remote = InMemorySyncRemote()
        let backup = await remote.backup()
        let (laptop, desktop, phone) = try await Self.threeMachinesHoldingOne(on: remote)
        let tablet = Client(4, remote: remote)
        // The desktop changes the secret and sends it; then uses a code of its new secret.
        await desktop.changeKey(Self.id(1), secret: 2, at: 2_000)
        _ = try await desktop.sync()
        await desktop.store.change(Self.id(1)) { $0?.counter = 1 }
        // The phone, which never saw that change, changes the secret too; the tablet joins.
        await phone.changeKey(Self.id(1), secret: 3, at: 3_000)
        _ = try await tablet.sync()
        await remote.restore(backup)
        for _ in 1...3 {
            for client in [phone, laptop, tablet, desktop] { _ = try await client.sync() }
        }
        let records = await desktop.records().values.filter { !$0.isDeleted.value }
        #expect(Set(records.map(\.key.value)) == [SyncMergeTests.key(2), SyncMergeTests.key(3)])
        #expect(records.first { $0.key.value == SyncMergeTests.key(2) }?.counter == 1)
        for client in [laptop, phone, tablet] { #expect(await client.records() == desktop.records()) }
    }

    @Test(
        """
        found by the lifecycle model check: codes used of a secret that another machine's merge has put on a copy, sent after \
        the server lost that copy (restored from a backup), count on the copy when that machine merges them in
        """)
    func remoteCounterFollowsItsKey() async throws {
        let remote = InMemorySyncRemote()
        let (laptop, desktop, phone) = try await Self.threeMachinesHoldingOne(on: remote)
        let backup = await remote.backup()
        await laptop.changeKey(Self.id(1), secret: 2, at: 2_000)
        _ = try await laptop.sync()
        // The desktop changes the secret later: its merge keeps its own, and a copy the laptop's.
        await desktop.changeKey(Self.id(1), secret: 3, at: 3_000)
        _ = try await desktop.sync()
        // The laptop, which has not seen that yet, uses three codes of its secret.
        await laptop.store.change(Self.id(1)) { $0?.counter = 3 }
        await remote.restore(backup)
        for _ in 1...3 {
            for client in [phone, laptop, desktop] { _ = try await client.sync() }
        }
        let records = await desktop.records().values.filter { !$0.isDeleted.value }
        #expect(Set(records.map(\.key.value)) == [SyncMergeTests.key(2), SyncMergeTests.key(3)])
        #expect(records.first { $0.key.value == SyncMergeTests.key(2) }?.counter == 3)
        for client in [laptop, phone] { #expect(await client.records() == desktop.records()) }
    }

    @Test(
        "an idle sync, once every push was seen back, reads no snapshot; a change on either side, or a server behind, makes it whole again")
    func quietRounds() async throws {
        let remote = InMemorySyncRemote()
        let backup = await remote.backup()
        let (laptop, desktop, _) = try await Self.threeMachinesHoldingOne(on: remote)
        // The laptop's first round sent its account; the second saw it back; the third is quiet.
        _ = try await laptop.sync()
        let before = await laptop.store.quietRounds
        #expect(try await laptop.sync() == SyncReport())
        #expect(await laptop.store.quietRounds == before + 1)
        await desktop.store.change(Self.id(1)) { $0?.note = Stamped("desk", changedAt: desktop.stamp(5_000)) }
        _ = try await desktop.sync()
        #expect(try await laptop.sync().received == 1, "a change elsewhere is pulled")
        #expect(await laptop.records()[Self.id(1)]?.note.value == "desk")
        await laptop.store.change(Self.id(1)) { $0?.name = Stamped("me@laptop", changedAt: laptop.stamp(6_000)) }
        #expect(try await laptop.sync().sent == 1, "a change here is sent")
        _ = try await laptop.sync()
        let quiet = await laptop.store.quietRounds
        _ = try await laptop.sync()
        #expect(await laptop.store.quietRounds == quiet + 1)
        await remote.restore(backup)
        let restored = try await laptop.sync()
        #expect(restored.serverBehind && restored.resent == 1, "a server restored from a backup is noticed")
    }

    @Test("a server that replays an old version at a sequence it made up does not stall the machine: its edit goes up at the next sync")
    func replayAtMadeUpSequence() async throws {
        let remote = InMemorySyncRemote()
        let (laptop, desktop) = (Client(1, remote: remote), Client(2, remote: remote))
        await laptop.add(Self.id(1), secret: 1, at: 1_000)
        _ = try await laptop.sync()
        await laptop.store.change(Self.id(1)) { $0?.note = Stamped("second", changedAt: laptop.stamp(2_000)) }
        _ = try await laptop.sync()
        _ = try await desktop.sync()
        for n in UInt8(2)...3 { await laptop.add(Self.id(n), secret: n, at: 3_000) }
        _ = try await laptop.sync()
        // Entry 1 is at sequence 2; the server serves its first version again at 4 (entry 3's).
        await remote.replayFirstVersion(of: Self.id(1), atMadeUpSequence: 4)
        await desktop.store.change(Self.id(1)) { $0?.name = Stamped("me@desk", changedAt: desktop.stamp(4_000)) }
        let report = try await desktop.sync()
        #expect(report.refusedReplays == [Self.id(1)])
        _ = try await desktop.sync()
        _ = try await laptop.sync()
        let entry = await laptop.records()[Self.id(1)]
        #expect(entry?.name.value == "me@desk" && entry?.note.value == "second")
        #expect(await desktop.records() == laptop.records())
    }

    @Test(
        "found by the lifecycle model check: codes used of a key another machine replaced and then deleted do not bring the entry back (nor send it back and forth)"
    )
    func usesOfAReplacedKeyDoNotRevive() async throws {
        let remote = InMemorySyncRemote(pageSize: 3)
        let (laptop, desktop) = (Client(1, remote: remote), Client(2, remote: remote))
        await laptop.add(Self.id(1), secret: 1, at: 1_000)
        _ = try await laptop.sync()
        _ = try await desktop.sync()
        await desktop.changeKey(Self.id(1), secret: 9, at: 2_000)
        await laptop.store.change(Self.id(1)) { $0?.counter = 3 }
        await desktop.store.change(Self.id(1)) { $0?.isDeleted = Stamped(true, changedAt: desktop.stamp(3_000)) }
        _ = try await desktop.sync()
        let report = try await laptop.sync()
        #expect(report.sent == 0, "nothing to send back: the deletion stands")
        #expect(await laptop.records()[Self.id(1)]?.isDeleted.value == true)
        #expect(try await desktop.sync().received == 0)
        #expect(await desktop.records() == laptop.records())
    }

    @Test("read your writes: a push the server acknowledged and did not keep is noticed at the next sync, said, and sent again")
    func lostAcknowledgedPush() async throws {
        let remote = InMemorySyncRemote()
        let (laptop, desktop) = (Client(1, remote: remote), Client(2, remote: remote))
        await laptop.add(Self.id(1), secret: 1, at: 1_000)
        _ = try await laptop.sync()
        await laptop.store.change(Self.id(1)) { $0?.note = Stamped("kept", changedAt: laptop.stamp(2_000)) }
        await laptop.add(Self.id(2), secret: 2, at: 2_000)
        await remote.dropNextPush()
        #expect(try await laptop.sync().sent == 2)
        let report = try await laptop.sync()
        #expect(report.lostAcknowledged == [Self.id(1), Self.id(2)] && report.sent == 2)
        _ = try await desktop.sync()
        let records = await desktop.records()
        #expect(records[Self.id(1)]?.note.value == "kept" && records[Self.id(2)] != nil)
        #expect(try await laptop.sync().lostAcknowledged.isEmpty)
    }

    @Test(
        "a push the server acknowledged and lost, while others wrote the entry twice: the lost edit merges with theirs instead of giving way to a later version"
    )
    func lostAcknowledgementUnderLaterVersions() async throws {
        let remote = InMemorySyncRemote()
        let (laptop, desktop, phone) = try await Self.threeMachinesHoldingOne(on: remote)
        await laptop.store.change(Self.id(1)) { $0?.note = Stamped("from the laptop", changedAt: laptop.stamp(2_000)) }
        await desktop.store.change(Self.id(1)) { $0?.name = Stamped("me@desk", changedAt: desktop.stamp(2_100)) }
        await phone.store.change(Self.id(1)) { $0?.issuer = Stamped("Phone Inc", changedAt: phone.stamp(2_200)) }
        await remote.dropNextPush()
        #expect(try await laptop.sync().sent == 1)
        _ = try await desktop.sync()
        _ = try await phone.sync()
        let report = try await laptop.sync()
        #expect(report.sent == 1, "the laptop's note is sent again")
        for client in [desktop, phone] { _ = try await client.sync() }
        let (records, onDesktop, onPhone) = (await laptop.records(), await desktop.records(), await phone.records())
        #expect(onDesktop == records && onPhone == records)
        let entry = try #require(records[Self.id(1)])
        #expect(entry.note.value == "from the laptop" && entry.name.value == "me@desk" && entry.issuer.value == "Phone Inc")
    }

    @Test(
        "found by the model check's mixed versions (seed 205868125): a newer version's field in a push the server lost comes back though a later version from a machine that never had it arrived"
    )
    func lostAcknowledgementOfAnUnknownField() async throws {
        let remote = InMemorySyncRemote()
        let (laptop, desktop, phone) = try await Self.threeMachinesHoldingOne(on: remote)
        let archived = SyncUnknownParts.Field(json: #"{"v":true}"#, changedAt: laptop.stamp(2_000))
        await laptop.store.change(Self.id(1)) { $0?.unknown.fields["archived"] = archived }
        await desktop.store.change(Self.id(1)) { $0?.name = Stamped("me@desk", changedAt: desktop.stamp(2_100)) }
        await remote.dropNextPush()
        #expect(try await laptop.sync().sent == 1)
        // Two later versions, each stamped after the lost push, neither with its field.
        _ = try await desktop.sync()
        _ = try await phone.sync()
        await phone.store.change(Self.id(1)) { $0?.issuer = Stamped("Phone Inc", changedAt: phone.stamp(2_200)) }
        _ = try await phone.sync()
        #expect(try await laptop.sync().sent == 1, "the laptop's field is sent again")
        for client in [desktop, phone] { _ = try await client.sync() }
        for client in [laptop, desktop, phone] {
            let entry = try #require(await client.records()[Self.id(1)])
            #expect(entry.unknown.fields["archived"] == archived && entry.name.value == "me@desk" && entry.issuer.value == "Phone Inc")
        }
    }

    @Test(
        "found by the model check's mixed versions (seed 17971638): a first version served again, with an earlier write of a newer version's field, does not undo a delete"
    )
    func replayedUnknownFieldDoesNotRevive() async throws {
        let remote = InMemorySyncRemote()
        let laptop = Client(1, remote: remote)
        await laptop.add(Self.id(1), secret: 1, at: 1_000)
        let first = SyncUnknownParts.Field(json: #"{"v":true,"at":"1"}"#, changedAt: laptop.stamp(1_100))
        await laptop.store.change(Self.id(1)) { $0?.unknown.fields["archived"] = first }
        _ = try await laptop.sync()
        let second = SyncUnknownParts.Field(json: #"{"v":false,"at":"2"}"#, changedAt: laptop.stamp(1_200))
        await laptop.store.change(Self.id(1)) { $0?.unknown.fields["archived"] = second }
        _ = try await laptop.sync()
        await laptop.store.change(Self.id(1)) { $0?.isDeleted = Stamped(true, changedAt: laptop.stamp(1_300)) }
        _ = try await laptop.sync()
        // A dishonest server serves the first version (alive, the field's first write) as new.
        await remote.replayFirstVersion(of: Self.id(1))
        #expect(try await laptop.sync().refusedReplays == [Self.id(1)])
        let desktop = Client(2, remote: remote)
        _ = try await desktop.sync()
        for client in [laptop, desktop] {
            let entry = try #require(await client.records()[Self.id(1)])
            #expect(entry.isDeleted.value && entry.unknown.fields["archived"] == second)
        }
    }

    /// A server whose pages never end: each says more follows, and either stays where it was or
    /// moves on by one sequence without an entry.
    final class EndlessPages: SyncRemote {
        let moving: Bool
        let pulls = Mutex(0)
        init(moving: Bool) { self.moving = moving }
        func pull(after cursor: Int64) async throws(SyncError) -> RemotePage {
            pulls.withLock { $0 += 1 }
            return RemotePage(
                entries: [], unreadable: moving ? [UnreadableEntry(id: UUID(), sequence: cursor + 1)] : [],
                head: moving ? cursor + 1 : cursor,
                hasMore: true)
        }
        func push(_ changes: [RemoteChange]) async throws(SyncError) -> [RemotePushResult] { [] }
    }

    @Test(
        "pages that never end stop the sync with one error and change nothing: one that does not move past the cursor at once, one that does after the most pages a sync takes",
        arguments: [false, true])
    func endlessPages(moving: Bool) async throws {
        let store = InMemorySyncLocalStore()
        let before = await store.state.cursor
        let remote = EndlessPages(moving: moving)
        await #expect(throws: SyncError.endlessPages) { try await DefaultSyncUseCase(local: store, remote: remote).execute() }
        #expect(await store.state.cursor == before)
        #expect(remote.pulls.withLock { $0 } == (moving ? DefaultSyncUseCase.maxPages : 1))
    }

    @Test(
        "an entry no machine can open (a device's garbage) stops nothing: set aside and counted, the rest syncs, and a machine holding that entry sends its own version back over it"
    )
    func unreadableEntry() async throws {
        let remote = InMemorySyncRemote(pageSize: 2)
        let (laptop, desktop) = (Client(1, remote: remote), Client(2, remote: remote))
        for n in UInt8(1)...3 { await laptop.add(Self.id(n), secret: n, at: 1_000) }
        _ = try await laptop.sync()
        await remote.poison(Self.id(2))
        await remote.poison(Self.id(9))
        await laptop.add(Self.id(4), secret: 4, at: 2_000)
        let report = try await laptop.sync()
        #expect(report.unreadable == [Self.id(2), Self.id(9)] && report.sent >= 2)
        // The laptop's version replaced the garbage it held; garbage under an id no machine holds
        // stays aside, counted once, and sync goes on past it.
        #expect(try await desktop.sync().unreadable == [Self.id(9)])
        #expect(await desktop.records() == laptop.records())
        #expect(await desktop.records().count == 4)
        #expect(try await desktop.sync().unreadable.isEmpty)
    }

    @Test(
        "a cursor older than the tombstone horizon resyncs from 0 and merges: an entry the server no longer has is kept and sent again (omission is not deletion), an edited copy survives"
    )
    func resync() async throws {
        let remote = InMemorySyncRemote()
        let (laptop, desktop) = (Client(1, remote: remote), Client(2, remote: remote))
        for n in UInt8(1)...3 { await laptop.add(Self.id(n), secret: n, at: 1_000) }
        _ = try await laptop.sync()
        _ = try await desktop.sync()
        for n in UInt8(1)...2 { await laptop.store.change(Self.id(n)) { $0?.isDeleted = Stamped(true, changedAt: laptop.stamp(2_000)) } }
        _ = try await laptop.sync()
        await remote.expireTombstones()
        await desktop.store.change(Self.id(2)) { $0?.note = Stamped("still used", changedAt: desktop.stamp(3_000)) }
        let report = try await desktop.sync()
        #expect(report.resynced && report.resent == 2)
        let kept = await desktop.records()
        #expect(kept[Self.id(1)]?.isDeleted.value == false && kept[Self.id(2)]?.note.value == "still used" && kept[Self.id(3)] != nil)
        #expect(await remote.stored.filter { !$0.record.isDeleted.value }.count == 3, "what the server had forgotten is back")
        // The laptop, which deleted the untouched copy after its last edit, deletes it again; the
        // edited one stays (an edit beats a delete).
        _ = try await laptop.sync()
        _ = try await desktop.sync()
        let final = await desktop.records()
        #expect(await laptop.records() == final)
        #expect(final[Self.id(1)]?.isDeleted.value == true && final[Self.id(2)]?.note.value == "still used")
    }

    @Test(
        "a server restored from a backup (its head behind the cursor): the machine says so, keeps what it has, merges what others wrote since and sends what the server lacks",
        arguments: [true, false])
    func serverRestored(tellsGeneration: Bool) async throws {
        let remote = InMemorySyncRemote(pageSize: 2, tellsGeneration: tellsGeneration)
        let (laptop, desktop) = (Client(1, remote: remote), Client(2, remote: remote))
        for n in UInt8(1)...3 { await laptop.add(Self.id(n), secret: n, at: 1_000) }
        _ = try await laptop.sync()
        _ = try await desktop.sync()
        let backup = await remote.backup()
        await laptop.store.change(Self.id(1)) { $0?.note = Stamped("after the backup", changedAt: laptop.stamp(2_000)) }
        await laptop.store.change(Self.id(2)) { $0?.isDeleted = Stamped(true, changedAt: laptop.stamp(2_000)) }
        await laptop.add(Self.id(4), secret: 4, at: 2_000)
        _ = try await laptop.sync()
        _ = try await desktop.sync()
        await remote.restore(backup)
        let report = try await desktop.sync()
        #expect(report.serverBehind && report.resent == 3)
        _ = try await laptop.sync()
        let records = await desktop.records()
        #expect(
            records[Self.id(1)]?.note.value == "after the backup" && records[Self.id(2)]?.isDeleted.value == true
                && records[Self.id(4)] != nil)
        #expect(await laptop.records() == records)
        #expect(await Set(remote.stored.map(\.record)) == Set(records.values), "the server has everything again")
    }

    /// One account on a laptop and a desktop, both synced; then the laptop changes its secret
    /// (secret 1 to secret 2), not synced yet.
    static func laptopChangedTheSecret() async throws -> (InMemorySyncRemote, Client, Client) {
        let remote = InMemorySyncRemote()
        let (laptop, desktop) = (Client(1, remote: remote), Client(2, remote: remote))
        await laptop.add(Self.id(1), secret: 1, at: 1_000)
        _ = try await laptop.sync()
        _ = try await desktop.sync()
        await laptop.changeKey(Self.id(1), secret: 2, at: 2_000)
        return (remote, laptop, desktop)
    }

    @Test("a secret changed on one machine before the server is restored, and on another after: neither knew the other's, so both stay")
    func keyChangedAroundRestore() async throws {
        let (remote, laptop, desktop) = try await Self.laptopChangedTheSecret()
        let backup = await remote.backup()
        _ = try await laptop.sync()
        await remote.restore(backup)
        // Later in hybrid time than the laptop's change, but made on the copy from before it.
        await desktop.changeKey(Self.id(1), secret: 3, at: 3_000)
        for client in [desktop, laptop, desktop, laptop] { _ = try await client.sync() }
        let records = await laptop.records()
        #expect(await desktop.records() == records)
        let secrets = Set(records.values.filter { !$0.isDeleted.value }.map(\.key.value))
        #expect(secrets == [SyncMergeTests.key(2), SyncMergeTests.key(3)])
    }

    @Test(
        """
        found by the lifecycle model check: a secret changed over an account another machine had added too, \
        then that machine's copy sent again over it: the new secret stays
        """)
    func keyChangedOverFoldedTwin() async throws {
        let remote = InMemorySyncRemote()
        let (laptop, desktop) = (Client(1, remote: remote), Client(2, remote: remote))
        await laptop.add(Self.id(1), secret: 9, at: 1_000)
        await desktop.add(Self.id(2), secret: 9, at: 900)
        // Two more accounts, so that the desktop's cursor ends past the restored server's head.
        await desktop.add(Self.id(5), secret: 5, at: 900)
        await desktop.add(Self.id(6), secret: 6, at: 900)
        _ = try await laptop.sync()
        let backup = await remote.backup()
        await laptop.changeKey(Self.id(1), secret: 3, at: 2_000)
        // The desktop folds its copy into the laptop's entry, under the laptop's key stamp.
        #expect(try await desktop.sync().mergedAdds == 1)
        await remote.restore(backup)
        // The new secret goes over the version the laptop had, and is seen back there.
        for _ in 1...2 { _ = try await laptop.sync() }
        // Served the entry's first version, the desktop sends its copy again, above the new secret.
        await remote.replayFirstVersion(of: Self.id(1))
        #expect(try await desktop.sync().serverBehind)
        for client in [laptop, desktop] { _ = try await client.sync() }
        let records = await laptop.records()
        #expect(await desktop.records() == records)
        #expect(records[Self.id(1)]?.key.value == SyncMergeTests.key(3))
    }

    @Test(
        "garbage healed by a machine with an older copy, then edited there: the secret changed elsewhere before comes back, with the edit")
    func healedWithOlderCopy() async throws {
        let (remote, laptop, desktop) = try await Self.laptopChangedTheSecret()
        _ = try await laptop.sync()
        _ = try await laptop.sync()  // its push seen back: confirmed
        await remote.poison(Self.id(1))
        // The desktop never saw the new secret: it sends back what it holds, then edits it.
        #expect(try await desktop.sync().unreadable == [Self.id(1)])
        await desktop.store.change(Self.id(1)) { $0?.note = Stamped("edited on the desk", changedAt: desktop.stamp(3_000)) }
        _ = try await desktop.sync()
        for client in [laptop, desktop] { _ = try await client.sync() }
        let records = await laptop.records()
        #expect(await desktop.records() == records)
        let entry = try #require(records[Self.id(1)])
        #expect(entry.key.value == SyncMergeTests.key(2) && entry.note.value == "edited on the desk")
    }

    @Test("a restored server that others refilled past this machine's cursor: noticed by its new generation, nothing missed")
    func restoredServerRefilled() async throws {
        let remote = InMemorySyncRemote(pageSize: 2)
        let (laptop, desktop, phone) = try await Self.threeMachinesHoldingOne(on: remote)
        let backup = await remote.backup()
        for n in UInt8(2)...4 { await laptop.add(Self.id(n), secret: n, at: 2_000) }
        for client in [laptop, desktop, phone] { _ = try await client.sync() }
        await remote.restore(backup)
        // The phone notices first, sends all it has, and adds more: the head passes the desktop's cursor.
        _ = try await phone.sync()
        for n in UInt8(5)...8 { await phone.add(Self.id(n), secret: n, at: 3_000) }
        _ = try await phone.sync()
        let report = try await desktop.sync()
        #expect(report.serverBehind)
        _ = try await laptop.sync()
        _ = try await phone.sync()
        let records = await desktop.records()
        #expect(records.count == 8 && records.values.allSatisfy { !$0.isDeleted.value })
        #expect(await laptop.records() == records)
        #expect(await phone.records() == records)
    }

    /// What a faulty run did, to check what may and may not be lost at the end.
    struct Ledger {
        /// In order of creation (a Set's order changes from run to run, and the run must not).
        var created: [KeyMaterial] = []
        /// Keys a delete or a key change took away on purpose.
        var removed: Set<KeyMaterial> = []
        /// The largest HOTP counter each entry reached, for entries whose key never changed.
        var counters: [UUID: UInt64] = [:]
        var rekeyed: Set<UUID> = []
    }

    @Test(
        "three machines over a faulty network (calls lost before or after the server applied them), the same key added on two: all end the same, nothing lost that was not deleted or replaced, every HOTP counter the largest reached",
        arguments: 0..<500)
    func convergenceWithFaults(seed: Int) async throws {
        var generator = SplitMix(seed: UInt64(seed) &* 104_729 &+ 17)
        let server = InMemorySyncRemote(pageSize: 4)
        let clients = (UInt8(1)...3).map { Client($0, remote: server) }
        let links = clients.indices.map { FaultyRemote(server, seed: UInt64(seed * 3 + $0)) }
        var ledger = Ledger()
        var now: Int64 = 1_000
        var nextID: UInt8 = 1
        for _ in 0..<40 {
            now += Int64.random(in: 1...50, using: &generator)
            let index = Int.random(in: 0..<3, using: &generator)
            let client = clients[index]
            let records = await client.records()
            let live = records.values.filter { !$0.isDeleted.value }.map(\.id).sorted { $0.uuidString < $1.uuidString }
            let target = live.randomElement(using: &generator)
            let stamp = client.stamp(now)
            switch (Int.random(in: 0..<9, using: &generator), target) {
            case (0, _), (1, _):
                // Now and then the key of an account another machine holds: the same account added twice.
                let twin = ledger.created.randomElement(using: &generator)
                let secret = Int.random(in: 0..<4, using: &generator) == 0 ? twin?.secret.bytes.first ?? nextID : nextID
                await client.add(Self.id(nextID), secret: secret, at: now)
                if !ledger.created.contains(SyncMergeTests.key(secret)) { ledger.created.append(SyncMergeTests.key(secret)) }
                nextID += 1
            case (2, let id?):
                let note = "\(seed)-\(now)"
                await client.store.change(id) { $0?.note = Stamped(note, changedAt: stamp) }
            case (3, let id?):
                let key = SyncMergeTests.key(UInt8.random(in: 100...200, using: &generator))
                if let old = records[id]?.key.value { ledger.removed.insert(old) }
                if !ledger.created.contains(key) { ledger.created.append(key) }
                ledger.rekeyed.insert(id)
                await client.store.change(id) { $0?.key = Stamped(key, changedAt: stamp) }
            case (4, let id?):
                let counter = (records[id]?.counter ?? 0) + UInt64.random(in: 1...3, using: &generator)
                ledger.counters[id] = max(ledger.counters[id] ?? 0, counter)
                await client.store.change(id) { $0?.counter = counter }
            case (5, let id?):
                if let old = records[id]?.key.value { ledger.removed.insert(old) }
                await client.store.change(id) { $0?.isDeleted = Stamped(true, changedAt: stamp) }
            default:
                // A failed sync changes nothing here; its pending changes wait for the next one.
                _ = try? await DefaultSyncUseCase(local: client.store, remote: links[index]).execute()
            }
        }
        for link in links { await link.setFaults(false) }
        for _ in 0..<3 { for client in clients { _ = try await client.sync() } }
        let first = await clients[0].records()
        for client in clients.dropFirst() { #expect(await client.records() == first, "seed \(seed): the machines disagree") }
        for client in clients { #expect(await client.store.state.pending.isEmpty, "seed \(seed)") }
        #expect(await Set(server.stored.map(\.record)) == Set(first.values), "seed \(seed): the server disagrees")
        let kept = Set(first.values.filter { !$0.isDeleted.value }.map(\.key.value))
        #expect(
            Set(ledger.created).subtracting(kept).isSubset(of: ledger.removed),
            "seed \(seed): a key was lost that no one deleted or replaced")
        for (id, counter) in ledger.counters where !ledger.rekeyed.contains(id) {
            if let record = first[id], !record.isDeleted.value {
                #expect(record.counter >= counter, "seed \(seed): \(id) lost HOTP counter \(counter)")
            }
        }
    }

    @Test(
        "three machines, seeded random adds, edits, key changes, HOTP use, reorders and deletes between syncs: all end the same",
        arguments: 0..<60)
    func convergence(seed: Int) async throws {
        var generator = SplitMix(seed: UInt64(seed) &* 7919)
        let remote = InMemorySyncRemote(pageSize: 3)
        let clients = (UInt8(1)...3).map { Client($0, remote: remote) }
        var now: Int64 = 1_000
        var nextID: UInt8 = 1
        for _ in 0..<30 {
            now += Int64.random(in: 1...50, using: &generator)
            let client = clients.randomElement(using: &generator)!
            let live = await client.records().values.filter { !$0.isDeleted.value }.map(\.id).sorted { $0.uuidString < $1.uuidString }
            let stamp = client.stamp(now)
            switch Int.random(in: 0..<8, using: &generator) {
            case 0, 1:
                await client.add(Self.id(nextID), secret: nextID, at: now)
                nextID += 1
            case 2 where !live.isEmpty:
                let tag = "\(seed)-\(now)"
                await client.store.change(live.randomElement(using: &generator)!) { $0?.note = Stamped(tag, changedAt: stamp) }
            case 3 where !live.isEmpty:
                let byte = UInt8.random(in: 100...200, using: &generator)
                await client.store.change(live.randomElement(using: &generator)!) {
                    $0?.key = Stamped(SyncMergeTests.key(byte), changedAt: stamp)
                }
            case 4 where !live.isEmpty:
                let steps = UInt64.random(in: 1...3, using: &generator)
                await client.store.change(live.randomElement(using: &generator)!) { $0?.counter += steps }
            case 5 where !live.isEmpty:
                let position = FractionalPosition.between(nil, FractionalPosition("U")!)
                await client.store.change(live.randomElement(using: &generator)!) { $0?.position = Stamped(position, changedAt: stamp) }
            case 6 where !live.isEmpty:
                await client.store.change(live.randomElement(using: &generator)!) { $0?.isDeleted = Stamped(true, changedAt: stamp) }
            default:
                _ = try await client.sync()
            }
        }
        for _ in 0..<3 { for client in clients { _ = try await client.sync() } }
        let first = await clients[0].records()
        for client in clients.dropFirst() {
            #expect(await client.records() == first, "seed \(seed): the machines disagree")
        }
        for client in clients { #expect(await client.store.state.pending.isEmpty, "seed \(seed)") }
        #expect(await Set(remote.stored.map(\.record)) == Set(first.values), "seed \(seed): the server disagrees")
    }
}

/// The fake server holds to the same contract as the real client and server (Tests-Integration).
@Suite("InMemorySyncRemote keeps the SyncRemote contract")
struct InMemorySyncRemoteContractTests {
    @Test("each clause", arguments: SyncRemoteContract.names)
    func clause(_ name: String) async throws {
        try await SyncRemoteContract.check(named: name)(InMemorySyncRemote())
    }
}

/// The clock check rides on the pull: the report carries the best of its pages' times.
@Suite("Sync use case: the server's time")
struct SyncUseCaseClockTests {
    @Test("a sync reports the offset of the page with the shortest round trip; a server that tells no time reports none")
    func reportsClockOffset() async throws {
        let remote = InMemorySyncRemote(pageSize: 1)
        let writer = SyncUseCaseTests.Client(1, remote: remote)
        for n in 0..<3 { await writer.add(UUID(), secret: UInt8(n), at: 1_000 + Int64(n)) }
        let quiet = try await writer.sync()
        #expect(quiet.clockOffset == nil)

        let reader = SyncUseCaseTests.Client(2, remote: remote)
        let sample = ClockOffsetTests.sample(sent: 0, trip: 0.1, server: -30)
        await remote.tellTime(sample)
        let report = try await reader.sync()
        #expect(report.received == 3)
        #expect(report.clockOffset == sample.offset)
        #expect(report.clockOffset?.isBeyond(10) == true)
    }
}
