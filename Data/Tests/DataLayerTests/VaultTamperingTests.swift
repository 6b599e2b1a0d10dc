import Domain
import Foundation
import GRDB
import Testing

@testable import DataLayer

/// Whoever can write the vault file cannot roll an entry back, remove, add or swap one, or plant
/// SQL that runs inside Tokens's transactions: unlock says "the vault was modified" (status 5)
/// and nothing is written.
@Suite("Vault tampering is found")
struct VaultTamperingTests {
    let folder = try! VaultFolder()

    @Test("an older copy of an HOTP entry is refused: its counter cannot go back")
    func rolledBackRow() async throws {
        let vault = try folder.create()
        let source = VaultAccountDataSource(vault: vault)
        let hotp = VaultFolder.account(1, kind: .hotp(counter: 5))
        try await source.insertAll([hotp, VaultFolder.account(2)])
        let old = try folder.rows("SELECT updated_at, version, nonce, ciphertext FROM entry WHERE id = '\(hotp.id)'")[0]
        for counter in 6...7 { _ = try await source.modify(id: hotp.id) { $0.kind = .hotp(counter: UInt64(counter)) } }
        try vault.close()
        try folder.tamper(
            "UPDATE entry SET updated_at = ?, version = ?, nonce = ?, ciphertext = ? WHERE id = ?",
            arguments: [old["updated_at"], old["version"], old["nonce"], old["ciphertext"], hotp.id.uuidString])
        try await folder.expectFailure(.modified(.entries))
        #expect(VaultError.modified(.entries).description.hasPrefix("the vault was modified outside Tokens"))
    }

    @Test("one entry fetched by id: only it is decrypted, but every entry is still checked against the manifest")
    func fetchOneChecksAll() async throws {
        let vault = try folder.create()
        let source = VaultAccountDataSource(vault: vault)
        let (first, second) = (VaultFolder.account(1), VaultFolder.account(2))
        try await source.insertAll([first, second])
        #expect(try await source.fetch(id: second.id) == second)
        let missing = VaultFolder.account(3).id
        #expect(try await source.fetch(id: missing) == nil)
        try folder.tamper("DELETE FROM entry WHERE id = ?", arguments: [first.id.uuidString])
        await #expect(throws: VaultError.modified(.entries)) { try await source.fetch(id: second.id) }
        try vault.close()
    }

    @Test("the ciphertext is bound to its entry's version: an older version's ciphertext does not open as a newer one")
    func versionInAssociatedData() throws {
        let keys = VaultKeys.fresh(vaultID: Data(repeating: 7, count: 16))
        let account = VaultFolder.account(1)
        let sealed = try EntryCipher.seal(account, version: 3, keys: keys)
        let record = { (version: Int) in
            EntryRecord(
                id: account.id.uuidString, sortOrder: 0, createdAt: 0, updatedAt: 0, version: version, nonce: sealed.nonce,
                ciphertext: sealed.ciphertext)
        }
        #expect(try EntryCipher.open(record(3), keys: keys).id == account.id)
        #expect(throws: VaultError.entryDamaged(id: account.id.uuidString)) { try EntryCipher.open(record(4), keys: keys) }
    }

    @Test(
        "a row removed, added, reordered or re-dated outside Tokens",
        arguments: [
            "DELETE FROM entry WHERE sort_order = 0",
            """
            INSERT INTO entry SELECT '00000000-0000-4000-8000-000000000099', sort_order + 5, created_at, updated_at,
            nonce, ciphertext, version FROM entry WHERE sort_order = 0
            """,
            "UPDATE entry SET sort_order = 1 - sort_order",
            "UPDATE entry SET created_at = created_at - 86400 WHERE sort_order = 1",
        ])
    func rowsChanged(sql: String) async throws {
        try await folder.makeClosedVault()
        try folder.tamper(sql)
        try await folder.expectFailure(.modified(.entries))
    }

    @Test(
        "a trigger, view, table or index Tokens did not create is refused at unlock",
        arguments: [
            ("CREATE TRIGGER freeze BEFORE UPDATE ON entry BEGIN SELECT RAISE(IGNORE); END", "trigger", "freeze"),
            ("CREATE VIEW peek AS SELECT id FROM entry", "view", "peek"),
            ("CREATE TABLE stash (x)", "table", "stash"),
            ("CREATE INDEX by_order ON entry (sort_order)", "index", "by_order"),
        ])
    func foreignSchema(sql: String, kind: String, name: String) async throws {
        try await folder.makeClosedVault()
        try folder.tamper(sql)
        try await folder.expectFailure(.modified(.foreignSchema(kind: kind, name: name)))
    }

    @Test("a header value of the wrong type, or no header row, is a damaged vault (one line), on either connection")
    func headerOfTheWrongType() async throws {
        try await folder.makeClosedVault()
        try folder.tamper("UPDATE header SET format_version = 'three'")
        try await folder.expectFailure(.damaged(path: folder.path, reason: "a value of the wrong type"))
        try folder.tamper("DELETE FROM header")
        try await folder.expectFailure(.damaged(path: folder.path, reason: "it has no vault header"))
    }

    @Test("one of Tokens's own tables dropped or redefined")
    func schemaChanged() async throws {
        try await folder.makeClosedVault()
        try folder.tamper("DROP TABLE grdb_migrations")
        try await folder.expectFailure(.modified(.schemaChanged))
    }

    @Test("a trigger planted while the vault is open: the next write is refused and stores nothing")
    func triggerPlantedWhileOpen() async throws {
        let vault = try folder.create()
        let source = VaultAccountDataSource(vault: vault)
        try await source.insert(VaultFolder.account(1))
        try folder.tamper("CREATE TRIGGER swallow BEFORE INSERT ON entry BEGIN SELECT RAISE(IGNORE); END")
        await #expect(throws: VaultError.modified(.foreignSchema(kind: "trigger", name: "swallow"))) {
            try await source.insert(VaultFolder.account(2))
        }
        #expect(try folder.rows("SELECT id FROM entry").count == 1)
    }

    @Test("a write SQLite reports as changing nothing fails instead of passing for done")
    func ignoredWrite() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE t (x); CREATE TRIGGER swallow BEFORE INSERT ON t BEGIN SELECT RAISE(IGNORE); END")
            #expect(throws: VaultError.modified(.writeIgnored)) { try VaultRows.execute(db, "INSERT INTO t VALUES (1)", []) }
            try db.execute(sql: "DROP TRIGGER swallow")
            try VaultRows.execute(db, "INSERT INTO t VALUES (1)", [])
            #expect(throws: VaultError.modified(.writeIgnored)) { try VaultRows.execute(db, "DELETE FROM t WHERE x = 2", []) }
        }
    }

    @Test("every write advances the revision and renews the manifest under the header MAC")
    func revisionAdvances() async throws {
        let vault = try folder.create()
        let source = VaultAccountDataSource(vault: vault)
        let header = { [folder] in try folder.rows("SELECT revision, manifest FROM header")[0] }
        #expect(try header()["revision"] as Int == 0)
        try await source.insert(VaultFolder.account(1))
        try await source.insert(VaultFolder.account(2))
        let manifest: Data = try header()["manifest"]
        try await source.reorder([VaultFolder.account(2).id])
        #expect(try header()["revision"] as Int == 3)
        #expect(try header()["manifest"] as Data != manifest)
        #expect(try await source.remove(id: VaultFolder.account(1).id))
        #expect(try header()["revision"] as Int == 4)
        #expect(try folder.rows("SELECT version FROM entry").map { $0["version"] as Int } == [1])
    }

    @Test("a passphrase changed by another tokens: this one's reads and writes stop, and write nothing")
    func rekeyedByAnother() async throws {
        let first = try folder.create()
        try await VaultAccountDataSource(vault: first).insert(VaultFolder.account(1))
        let second = try Vault.open(at: folder.path, passphrase: Passphrase("correct horse"))
        try first.changePassphrase(to: Passphrase("another passphrase"), kdf: VaultFolder.fastKDF)
        let stale = VaultAccountDataSource(vault: second)
        await #expect(throws: VaultError.changedSinceUnlock) { try await stale.insert(VaultFolder.account(2)) }
        await #expect(throws: VaultError.changedSinceUnlock) { try await stale.fetchAll() }
        #expect(try await VaultAccountDataSource(vault: first).fetchAll() == [VaultFolder.account(1)])
    }
}
