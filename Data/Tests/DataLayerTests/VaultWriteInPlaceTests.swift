import Domain
import DomainTestSupport
import Foundation
import GRDB
import Testing

@testable import DataLayer

/// A change to one account (an edit, an HOTP code) on a vault opened as a command opens it is
/// written in place (`UnlockedVault.writeInPlace`): that entry's row is checked against the
/// index and sealed into it again, and no other row is read; the index stays true of every row.
@Suite("A write of one account in place")
struct VaultWriteInPlaceTests {
    let folder = try! VaultFolder()

    private func makeVault(_ count: Int = 6) async throws {
        let vault = try folder.create()
        try await VaultAccountDataSource(vault: vault).insertAll((1...count).map { VaultFolder.account($0) })
        try vault.close()
    }

    private func reopened() throws -> UnlockedVault {
        try Vault.open(at: folder.path, passphrase: Passphrase("correct horse"))
    }

    @Test("an edit checks no row but its own, and a full read afterwards finds every row as the index says")
    func editInPlace() async throws {
        try await makeVault()
        let vault = try reopened()
        let id = VaultFolder.account(4).id
        let before = try await VaultAccountDataSource(vault: vault).modify(id: id) { $0.note = "in place" }
        #expect(before?.note == "")
        #expect(vault.manifestChecks == 0)
        #expect(try await VaultAccountDataSource(vault: vault).search(AccountQuery("in place")).map(\.id) == [id], "its haystack too")
        try vault.close()
        let again = try reopened()
        defer { try? again.close() }
        try again.verify()
        let accounts = try await VaultAccountDataSource(vault: again).fetchAll()
        #expect(accounts.map(\.id) == (1...6).map { VaultFolder.account($0).id })
        #expect(accounts.first { $0.id == id }?.note == "in place")
    }

    @Test("an edit of a row rolled back outside Tokens is refused and nothing is written; an absent account is nil")
    func rolledBackRowRefused() async throws {
        try await makeVault()
        let id = VaultFolder.account(2).id
        let old = try folder.rows("SELECT version, nonce, ciphertext FROM entry WHERE id = '\(id)'")[0]
        let vault = try reopened()
        _ = try await VaultAccountDataSource(vault: vault).modify(id: id) { $0.note = "newer" }
        try vault.close()
        try folder.tamper(
            "UPDATE entry SET version = ?, nonce = ?, ciphertext = ? WHERE id = ?",
            arguments: [old["version"], old["nonce"], old["ciphertext"], id.uuidString])
        let rows = { try self.folder.contents(of: ["entry", "header"]) }
        let tampered = try rows()
        let again = try reopened()
        defer { try? again.close() }
        await #expect(throws: VaultError.modified(.entries)) {
            _ = try await VaultAccountDataSource(vault: again).modify(id: id) { $0.note = "over the old copy" }
        }
        #expect(try rows() == tampered)
        #expect(try await VaultAccountDataSource(vault: again).modify(id: UUID()) { $0.note = "none" } == nil)
    }
}
