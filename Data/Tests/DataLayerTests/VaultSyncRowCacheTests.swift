import Domain
import DomainTestSupport
import Foundation
import GRDB
import Testing

@testable import DataLayer

/// A sync round opens each sync row at most once, and what an unlocked vault opened is never
/// taken for a row that changed since: another tokens's write is read, a planted copy refused.
@Suite("The vault's opened sync rows")
struct VaultSyncRowCacheTests {
    typealias Machine = VaultSyncStoreTests.Machine

    static func accounts(_ count: Int) -> [Account] { (1...count).map { VaultFolder.account($0) } }

    @Test("a round on a vault just unlocked opens each sync row once (status, snapshot and commit share it); the next round opens none")
    func roundOpensEachRowOnce() async throws {
        let machine = try await Machine(accounts: Self.accounts(5))
        try await machine.join(device: 1)
        let remote = InMemorySyncRemote()
        _ = try await machine.sync(remote)
        let unlocked = try Vault.open(at: machine.folder.path, passphrase: Passphrase("correct horse"))
        let store = VaultSyncStore(vault: unlocked, clock: machine.clock)
        #expect(try await store.status().pending == 0)
        #expect(try await store.membership() != nil)
        #expect(try await DefaultSyncUseCase(local: store, remote: remote).execute() == SyncReport())
        #expect(unlocked.syncRows.opens == 5)
        #expect(try await DefaultSyncUseCase(local: store, remote: remote).execute() == SyncReport())
        #expect(unlocked.syncRows.opens == 5)
        try unlocked.close()
    }

    @Test("an edit or a deletion on a vault just unlocked opens that account's sync row alone, and records it pending")
    func editOpensItsRowAlone() async throws {
        let machine = try await Machine(accounts: Self.accounts(6))
        try await machine.join(device: 1)
        _ = try await machine.sync(InMemorySyncRemote())
        let unlocked = try Vault.open(at: machine.folder.path, passphrase: Passphrase("correct horse"))
        let source = VaultAccountDataSource(vault: unlocked, clock: machine.clock)
        let (edited, deleted) = (VaultFolder.account(2).id, VaultFolder.account(5).id)
        _ = try await source.modify(id: edited) { $0.note = "one row" }
        #expect(unlocked.syncRows.opens == 1)
        #expect(unlocked.manifestChecks == 0, "written in place")
        #expect(try await source.remove(id: deleted))
        #expect(unlocked.syncRows.opens == 2)
        try unlocked.close()
        let snapshot = try await machine.store.snapshot()
        #expect(snapshot.pending == [edited, deleted])
        #expect(snapshot.records[edited]?.note.value == "one row")
        #expect(snapshot.records[deleted]?.isDeleted.value == true)
    }

    @Test("a sync row another tokens rewrote is opened again: its change is read, not the row this vault opened before")
    func rowRewrittenElsewhereIsRead() async throws {
        let machine = try await Machine(accounts: Self.accounts(3))
        try await machine.join(device: 1)
        _ = try await machine.sync(InMemorySyncRemote())
        #expect(try await machine.store.snapshot().pending.isEmpty)
        let other = try Vault.open(at: machine.folder.path, passphrase: Passphrase("correct horse"))
        let id = VaultFolder.account(2).id
        _ = try await VaultAccountDataSource(vault: other, clock: machine.clock).modify(id: id) { $0.note = "from the other tokens" }
        try other.close()
        let snapshot = try await machine.store.snapshot()
        #expect(snapshot.pending == [id])
        #expect(snapshot.records[id]?.note.value == "from the other tokens")
    }

    @Test("an older copy of a sync row planted while the vault is open, after it opened that row, is refused and nothing is written")
    func plantedOlderRowRefused() async throws {
        let machine = try await Machine(accounts: Self.accounts(2))
        try await machine.join(device: 1)
        _ = try await machine.sync(InMemorySyncRemote())
        let id = VaultFolder.account(1).id
        let old = try machine.folder.rows("SELECT version, nonce, ciphertext FROM sync_entry WHERE id = '\(id)'")[0]
        _ = try await machine.source.modify(id: id) { $0.note = "newer" }
        #expect(try await machine.store.snapshot().records[id]?.note.value == "newer")
        try machine.folder.tamper(
            "UPDATE sync_entry SET version = ?, nonce = ?, ciphertext = ? WHERE id = ?",
            arguments: [old["version"], old["nonce"], old["ciphertext"], id.uuidString])
        let rows = { try machine.folder.contents(of: ["header", "entry", "sync_entry", "sync_account"]) }
        let before = try rows()
        await #expect(throws: VaultError.modified(.entries)) { try await machine.store.snapshot() }
        await #expect(throws: VaultError.modified(.entries)) { try await machine.sync(InMemorySyncRemote()) }
        #expect(try rows() == before)
    }

    @Test("a sync row whose ciphertext was changed behind its nonce, length and tag (what the vault keeps of it) is refused, not served")
    func bodyChangedBehindTagRefused() async throws {
        let machine = try await Machine(accounts: Self.accounts(2))
        try await machine.join(device: 1)
        _ = try await machine.sync(InMemorySyncRemote())
        let id = VaultFolder.account(1).id
        #expect(try await machine.store.snapshot().records[id] != nil)
        let opens = machine.vault.syncRows.opens
        let row = try machine.folder.rows("SELECT ciphertext FROM sync_entry WHERE id = '\(id)'")[0]
        var ciphertext = try #require(row["ciphertext"] as Data?)
        ciphertext[0] ^= 0xFF
        try machine.folder.tamper("UPDATE sync_entry SET ciphertext = ? WHERE id = ?", arguments: [ciphertext, id.uuidString])
        await #expect(throws: VaultError.modified(.entries)) { try await machine.store.snapshot() }
        await #expect(throws: VaultError.modified(.entries)) { try await machine.sync(InMemorySyncRemote()) }
        // Refused by the manifest before the row was looked up: nothing was opened again either.
        #expect(machine.vault.syncRows.opens == opens)
    }

    @Test("a new passphrase re-seals every sync row: what was opened under the old keys is forgotten, the rows open under the new")
    func passphraseChangeForgets() async throws {
        let machine = try await Machine(accounts: Self.accounts(2))
        try await machine.join(device: 1)
        _ = try await machine.sync(InMemorySyncRemote())
        let opens = machine.vault.syncRows.opens
        try machine.vault.changePassphrase(to: Passphrase("battery staple"), kdf: VaultFolder.fastKDF)
        #expect(try await machine.store.snapshot().records.count == 2)
        #expect(machine.vault.syncRows.opens == opens + 2)
    }
}
