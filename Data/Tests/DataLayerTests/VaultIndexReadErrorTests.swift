import Crypto
import Domain
import Foundation
import GRDB
import Testing

@testable import DataLayer

/// A read of the sealed index that fails (the disk's error, a busy file) is that error, which
/// the vault names as it names every SQLite error, and not "modified outside Tokens", which
/// would send the user to a backup for a vault nobody changed.
@Suite("The sealed index's read errors")
struct VaultIndexReadErrorTests {
    let folder = try! VaultFolder()

    /// Reads that fail as SQLite does when the disk does (`SQLITE_IOERR`).
    struct FailingReads: VaultQuerying {
        func rows<T>(_ sql: String, _ map: (SQLiteReadRow) throws -> T) throws -> [T] {
            throw SQLiteReadError(code: 10, message: "disk I/O error")
        }
    }

    /// The header and keys of a closed vault of three accounts.
    private func makeVault() async throws -> (VaultHeader, VaultKeys) {
        let vault = try folder.create()
        try await VaultAccountDataSource(vault: vault).insertAll([1, 2, 3].map { VaultFolder.account($0) })
        try vault.close()
        let path = folder.path
        let header = try folder.read { db in try VaultHeader.read(db, path: path) }
        let master = try #require(try header.slots[0].unwrap(with: Passphrase("correct horse")))
        return (header, VaultKeys(master: master, vaultID: header.vaultID))
    }

    @Test("the pieces' read failing is SQLite's error, and the vault calls it damage with SQLite's reason")
    func piecesReadError() async throws {
        let (header, keys) = try await makeVault()
        var pieces = 0
        try folder.read { db in try SealedVaultIndex.openPieces(in: db, keys: keys, header: header) { _, _ in pieces += 1 } }
        #expect(pieces > 0, "the same header and keys open the stored pieces")

        #expect(throws: SQLiteReadError.self) {
            try SealedVaultIndex.openPieces(in: FailingReads(), keys: keys, header: header) { _, _ in }
        }
        #expect(throws: VaultError.damaged(path: folder.path, reason: "disk I/O error")) {
            try VaultDatabase.guarding(path: folder.path) {
                try SealedVaultIndex.openPieces(in: FailingReads(), keys: keys, header: header) { _, _ in }
            }
        }
    }

    @Test("format 4's one row: its read failing is SQLite's error too")
    func format4ReadError() async throws {
        let (header, keys) = try await makeVault()
        let format4 = VaultHeader(
            formatVersion: 4, vaultID: header.vaultID, slots: header.slots, revision: header.revision, manifest: header.manifest,
            mac: header.mac)
        #expect(throws: SQLiteReadError.self) {
            try SealedVaultIndex.openPieces(in: FailingReads(), keys: keys, header: format4) { _, _ in }
        }
    }

    @Test("what is not a read error stays 'modified': the caller's refusal, or a piece under other keys")
    func otherErrorsAreModified() async throws {
        let (header, keys) = try await makeVault()
        struct Refused: Error {}
        #expect(throws: VaultError.modified(.entries)) {
            try folder.read { db in try SealedVaultIndex.openPieces(in: db, keys: keys, header: header) { _, _ in throw Refused() } }
        }
        let other = VaultKeys(master: SymmetricKey(size: .bits256), vaultID: header.vaultID)
        #expect(throws: VaultError.modified(.entries)) {
            try folder.read { db in try SealedVaultIndex.openPieces(in: db, keys: other, header: header) { _, _ in } }
        }
    }
}
