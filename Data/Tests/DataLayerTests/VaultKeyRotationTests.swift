import Domain
import Foundation
import GRDB
import Testing

@testable import DataLayer

/// `passwd` rotates the master key: the old passphrase, even with an old copy of the header,
/// opens nothing written since.
@Suite("passwd rotates the master key")
struct VaultKeyRotationTests {
    let folder = try! VaultFolder()

    @Test("a new master key: every entry re-encrypted, one slot, the open vault keeps working, only the new passphrase unlocks")
    func rotates() async throws {
        let vault = try folder.create("old passphrase")
        let source = VaultAccountDataSource(vault: vault)
        try await source.insert(VaultFolder.account(1))
        let before = try folder.rows("SELECT ciphertext, version FROM entry")[0]
        try vault.changePassphrase(to: Passphrase("new passphrase"), kdf: VaultFolder.fastKDF)
        let after = try folder.rows("SELECT ciphertext, version FROM entry")[0]
        #expect(after["ciphertext"] as Data != before["ciphertext"] as Data)
        #expect(after["version"] as Int == 2)
        #expect(try vault.slotCount() == 1)
        try await source.insert(VaultFolder.account(2))
        #expect(try await source.fetchAll() == [VaultFolder.account(1), VaultFolder.account(2)])
        try vault.close()
        #expect(throws: VaultError.wrongPassphrase) { try Vault.open(at: folder.path, passphrase: Passphrase("old passphrase")) }
        let reopened = try Vault.open(at: folder.path, passphrase: Passphrase("new passphrase"))
        #expect(try await VaultAccountDataSource(vault: reopened).fetchAll() == [VaultFolder.account(1), VaultFolder.account(2)])
    }

    @Test("the header rows from before passwd copied into the file: the old passphrase opens nothing")
    func oldHeaderOpensNothing() async throws {
        let vault = try folder.create("old passphrase")
        let source = VaultAccountDataSource(vault: vault)
        try await source.insert(VaultFolder.account(1))
        let oldHeader = try folder.rows("SELECT * FROM header")
        let oldSlots = try folder.rows("SELECT * FROM key_slot")
        try vault.changePassphrase(to: Passphrase("new passphrase"), kdf: VaultFolder.fastKDF)
        try await source.insert(VaultFolder.account(2))
        try vault.close()

        try folder.tamper("DELETE FROM key_slot")
        for row in oldSlots {
            try folder.tamper("INSERT INTO key_slot VALUES (?, ?, ?, ?, ?, ?, ?, ?)", arguments: StatementArguments(row.databaseValues))
        }
        try folder.tamper(
            "INSERT OR REPLACE INTO header VALUES (?, ?, ?, ?, ?, ?)", arguments: StatementArguments(oldHeader[0].databaseValues))

        // The old slot still gives the old master key, and it decrypts no entry, old or new.
        let path = folder.path
        let header = try folder.read { db in try VaultHeader.read(db, path: path) }
        let oldMaster = try #require(try header.slots[0].unwrap(with: Passphrase("old passphrase")))
        let oldKeys = VaultKeys(master: oldMaster, vaultID: header.vaultID)
        let records = try folder.rows("SELECT * FROM entry").map(EntryRecord.init)
        #expect(records.count == 2)
        for record in records {
            #expect(throws: VaultError.entryDamaged(id: record.id)) { try EntryCipher.open(record, keys: oldKeys) }
        }
        try await folder.expectFailure(.modified(.entries), passphrase: "old passphrase")
    }
}
