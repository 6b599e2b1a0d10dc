import Domain
import DomainTestSupport
import Foundation
import GRDB
import Testing

@testable import DataLayer

/// A sync round that reads only the entries it touches (`SyncPartialRound`): an edit pushed or
/// pulled opens that entry's sync row alone; a round it cannot do alone (an entry new to this
/// machine, a key changed, a deletion, a push answered with a conflict) ends as the whole round
/// does.
@Suite("A partial sync round on the vault")
struct VaultPartialRoundTests {
    typealias Machine = VaultSyncStoreTests.Machine
    let remote = InMemorySyncRemote()

    /// Two machines holding accounts 1 to 8, both settled.
    private func settledPair() async throws -> (Machine, Machine) {
        let laptop = try await Machine(accounts: (1...8).map { VaultFolder.account($0) })
        try await laptop.join(device: 1)
        let desktop = try await Machine(clock: laptop.clock)
        try await desktop.join(device: 2, joining: true)
        for machine in [laptop, desktop, laptop, desktop] { _ = try await machine.sync(remote) }
        #expect(try await laptop.content() == desktop.content())
        return (laptop, desktop)
    }

    /// A round on `machine`'s vault unlocked again (nothing opened yet): its report, how many
    /// sync rows it opened, and how many times it checked every row against the index.
    private func reopenedRound(_ machine: Machine, on remote: any SyncRemote) async throws -> (
        SyncReport, opened: Int, everyRowChecked: Int
    ) {
        machine.clock.advance(by: 1)
        let vault = try Vault.open(at: machine.folder.path, passphrase: Passphrase("correct horse"))
        defer { try? vault.close() }
        let checks = vault.manifestChecks
        let report = try await DefaultSyncUseCase(local: VaultSyncStore(vault: vault, clock: machine.clock), remote: remote).execute()
        return (report, vault.syncRows.opens, vault.manifestChecks - checks)
    }

    /// Every row of `machine`'s vault, as text, to compare before and after.
    private func rows(_ machine: Machine) throws -> [[String]] {
        try machine.folder.contents(of: ["header", "entry", "index_piece", "index_chunk", "sync_entry", "sync_account"])
    }

    @Test("one edit pushed, then pulled, opens that entry's sync row alone on each machine, and both end the same")
    func editOpensOneRow() async throws {
        let (laptop, desktop) = try await settledPair()
        let id = VaultFolder.account(3).id
        _ = try await laptop.source.modify(id: id) { $0.note = "moved desks" }
        let (pushed, pushOpened, pushChecked) = try await reopenedRound(laptop, on: remote)
        #expect(pushed.sent == 1)
        #expect(pushOpened == 1)
        #expect(pushChecked == 0, "read and written in place: no row but the entry's and the account's checked")
        let (pulled, pullOpened, pullChecked) = try await reopenedRound(desktop, on: remote)
        #expect(pulled.received == 1)
        #expect(pullOpened == 1)
        #expect(pullChecked == 0)
        // The laptop sees its push back: settled, so the round after is quiet.
        #expect(try await reopenedRound(laptop, on: remote).opened == 1)
        #expect(try await laptop.store.quietStart() != nil)
        #expect(try await desktop.content().first { $0.id == id }?.note == "moved desks")
        #expect(try await laptop.content() == desktop.content())
    }

    @Test("a row the round reads in place, changed or rolled back outside Tokens, is refused and nothing is written")
    func tamperedRowRefused() async throws {
        let (laptop, desktop) = try await settledPair()
        let id = VaultFolder.account(6).id
        let old = try desktop.folder.rows("SELECT version, nonce, ciphertext FROM sync_entry WHERE id = '\(id)'")[0]
        let oldEntry = try desktop.folder.rows("SELECT * FROM entry WHERE id = '\(id)'")[0]
        _ = try await desktop.source.modify(id: id) { $0.note = "newer" }
        _ = try await desktop.sync(remote)
        _ = try await desktop.sync(remote)
        _ = try await laptop.source.modify(id: id) { $0.note = "from the laptop" }
        _ = try await laptop.sync(remote)
        let current = try desktop.folder.rows("SELECT version, nonce, ciphertext FROM sync_entry WHERE id = '\(id)'")[0]
        let currentEntry = try desktop.folder.rows("SELECT * FROM entry WHERE id = '\(id)'")[0]
        let tables = ["sync_entry": (old, current), "entry": (oldEntry, currentEntry)]
        for table in ["sync_entry", "entry"] {
            let (rolledBack, now) = tables[table]!
            let sql = "UPDATE \(table) SET version = ?, nonce = ?, ciphertext = ? WHERE id = ?"
            try desktop.folder.tamper(
                sql, arguments: [rolledBack["version"], rolledBack["nonce"], rolledBack["ciphertext"], id.uuidString])
            let tampered = try rows(desktop)
            await #expect(throws: VaultError.modified(.entries), "\(table)") { _ = try await reopenedRound(desktop, on: remote) }
            #expect(try rows(desktop) == tampered, "nothing written")
            try desktop.folder.tamper(sql, arguments: [now["version"], now["nonce"], now["ciphertext"], id.uuidString])
        }
        #expect(try await reopenedRound(desktop, on: remote).0.received == 1)
        #expect(try await desktop.content() == laptop.content())
    }

    @Test("an account new to this machine, a key replaced and a deletion are taken by the whole round, every row opened")
    func wholeRoundWhenAlone() async throws {
        let (laptop, desktop) = try await settledPair()
        try await laptop.source.insert(VaultFolder.account(9))
        _ = try await laptop.sync(remote)
        let (added, addOpened, _) = try await reopenedRound(desktop, on: remote)
        #expect(added.received == 1)
        #expect(addOpened == 8, "every row it held")

        _ = try await laptop.source.modify(id: VaultFolder.account(2).id) { $0.secret = Secret(bytes: Array("a new key for two".utf8)) }
        #expect(try await laptop.source.remove(id: VaultFolder.account(5).id))
        _ = try await laptop.sync(remote)
        let (changed, changeOpened, _) = try await reopenedRound(desktop, on: remote)
        #expect(changed.received == 2)
        #expect(changeOpened == 9)
        _ = try await laptop.sync(remote)
        #expect(try await laptop.content() == desktop.content())
        #expect(try await desktop.content().count == 8)
    }

    @Test(
        "a push answered with a conflict reads the other entries and merges as the whole round does: both fields' edits kept, both machines the same"
    )
    func conflictMakesWhole() async throws {
        let (laptop, desktop) = try await settledPair()
        let id = VaultFolder.account(4).id
        _ = try await laptop.source.modify(id: id) { $0.note = "laptop's note" }
        _ = try await desktop.source.modify(id: id) { $0.name = "desktop's name" }
        // The desktop pushes between the laptop's pull and its push.
        let (store, clock, remote) = (desktop.store, desktop.clock, remote)
        let racing = PushFirst(remote) {
            clock.advance(by: 1)
            _ = try? await DefaultSyncUseCase(local: store, remote: remote).execute()
        }
        let (report, opened, _) = try await reopenedRound(laptop, on: racing)
        #expect(report.sent == 1)
        #expect(opened == 8, "the conflict read every row")
        _ = try await desktop.sync(remote)
        let merged = try #require(try await laptop.content().first { $0.id == id })
        #expect(merged.note == "laptop's note")
        #expect(merged.name == "desktop's name")
        #expect(try await laptop.content() == desktop.content())
    }
}

/// A remote that runs `before` once, before the first push reaches `inner`.
private actor PushFirst: SyncRemote {
    let inner: InMemorySyncRemote
    var before: (@Sendable () async -> Void)?

    init(_ inner: InMemorySyncRemote, before: @escaping @Sendable () async -> Void) {
        self.inner = inner
        self.before = before
    }

    func pull(after cursor: Int64) async throws(SyncError) -> RemotePage { try await inner.pull(after: cursor) }

    func push(_ changes: [RemoteChange]) async throws(SyncError) -> [RemotePushResult] {
        if let before {
            self.before = nil
            await before()
        }
        return try await inner.push(changes)
    }
}
