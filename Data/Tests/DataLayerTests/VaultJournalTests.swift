import DataLayer
import Domain
import Foundation
import GRDB
import Testing

/// The vault's journal: a rollback journal, so that a command that reads opens one file; a
/// vault an earlier build made in WAL mode leaves it at a write that finds it alone.
@Suite("Vault journal")
struct VaultJournalTests {
    let folder = try! VaultFolder()

    private func journalMode() throws -> String? {
        try folder.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") }
    }

    /// A closed vault of two accounts, in WAL mode as earlier builds made it.
    private func makeWALVault() async throws {
        try await folder.makeClosedVault()
        let queue = try DatabaseQueue(path: folder.path)
        try await queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA journal_mode = WAL") }
        try queue.close()
        #expect(try journalMode() == "wal")
    }

    @Test("reading and searching an unlocked vault leaves no file beside it, while open or after")
    func readingMakesNoFile() async throws {
        try await folder.makeClosedVault()
        let vault = try Vault.open(at: folder.path, passphrase: Passphrase("correct horse"))
        let source = VaultAccountDataSource(vault: vault)
        #expect(try await source.search(AccountQuery("issuer 2")).map(\.id) == [VaultFolder.account(2).id])
        #expect(try await source.fetchAll().count == 2)
        #expect(Set(try folder.snapshot().keys) == ["vault.sqlite"])
        try vault.close()
        #expect(Set(try folder.snapshot().keys) == ["vault.sqlite"])
    }

    @Test("a vault in WAL mode opens and reads unchanged, leaves WAL mode at its first write, and keeps every account")
    func leavesWALAtWrite() async throws {
        try await makeWALVault()
        let before = try folder.snapshot()
        let vault = try Vault.open(at: folder.path, passphrase: Passphrase("correct horse"))
        let source = VaultAccountDataSource(vault: vault)
        #expect(try await source.fetchAll().count == 2)
        #expect(try folder.snapshot()["vault.sqlite"] == before["vault.sqlite"])
        #expect(try journalMode() == "wal")
        try await source.insert(VaultFolder.account(3))
        #expect(try journalMode() == "delete")
        #expect(try await source.search(AccountQuery("issuer 3")).map(\.id) == [VaultFolder.account(3).id])
        try vault.close()
        #expect(Set(try folder.snapshot().keys) == ["vault.sqlite"])
        let reopened = VaultAccountDataSource(vault: try Vault.open(at: folder.path, passphrase: Passphrase("correct horse")))
        #expect(try await reopened.fetchAll().map(\.id) == (1...3).map { VaultFolder.account($0).id })
    }

    @Test("while another connection holds a WAL vault open, a write neither waits for it nor fails; the vault leaves WAL at a later write")
    func staysWALWhileShared() async throws {
        try await makeWALVault()
        let other = try DatabaseQueue(path: folder.path)
        _ = try await other.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM entry") }
        let vault = try Vault.open(at: folder.path, passphrase: Passphrase("correct horse"))
        let source = VaultAccountDataSource(vault: vault)
        let start = ContinuousClock.now
        try await source.insert(VaultFolder.account(3))
        // The busy timeout is 30 s: a write that waited for the other connection would take it.
        #expect(ContinuousClock.now - start < .seconds(20))
        #expect(try journalMode() == "wal")
        #expect(try await other.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM entry") } == 3)
        try other.close()
        try await source.insert(VaultFolder.account(4))
        #expect(try journalMode() == "delete")
        #expect(try await source.fetchAll().count == 4)
        try vault.close()
    }
}
