import Crypto
import DataLayer
import Domain
import Foundation
import GRDB
import Testing

@Suite("Encrypted vault")
struct VaultTests {
    let folder = try! VaultFolder()

    @Test("create → unlock → add, update, HOTP advance, delete; a new unlock sees the same accounts")
    func roundTrip() async throws {
        let repository = DefaultAccountRepository(dataSource: VaultAccountDataSource(vault: try folder.create()))
        try await repository.add(VaultFolder.account(1))
        try await repository.add(VaultFolder.account(2, kind: .hotp(counter: 5)))
        var edited = VaultFolder.account(1, note: "changed")
        edited.isFavorite = true
        try await repository.update(edited)
        #expect(try await repository.advanceCounter(id: VaultFolder.account(2).id).counter == 5)
        try await repository.add(VaultFolder.account(3))
        try await repository.delete(id: VaultFolder.account(3).id)

        let reopened = DefaultAccountRepository(
            dataSource: VaultAccountDataSource(vault: try Vault.open(at: folder.path, passphrase: Passphrase("correct horse"))))
        let accounts = try await reopened.list()
        #expect(accounts.map(\.id) == [VaultFolder.account(1).id, VaultFolder.account(2).id])
        #expect(accounts[0] == edited)
        #expect(accounts[1].kind == .hotp(counter: 6))
        await #expect(throws: RepositoryError.notFound(VaultFolder.account(3).id)) {
            try await reopened.delete(id: VaultFolder.account(3).id)
        }
        await #expect(throws: RepositoryError.duplicateID(VaultFolder.account(1).id)) {
            try await reopened.add(VaultFolder.account(1))
        }
    }

    @Test("reorder stores the user's order, in one transaction")
    func reorder() async throws {
        let source = VaultAccountDataSource(vault: try folder.create())
        for number in 1...3 { try await source.insert(VaultFolder.account(number)) }
        try await source.reorder([VaultFolder.account(3).id, VaultFolder.account(1).id])
        #expect(try await source.fetchAll().map(\.id) == [3, 1, 2].map { VaultFolder.account($0).id })
    }

    @Test("refuses to create over an existing vault, and an empty passphrase")
    func createRefusals() throws {
        _ = try folder.create()
        let before = try folder.snapshot()
        #expect(throws: VaultError.alreadyExists(path: folder.path)) {
            try Vault.create(at: folder.path, passphrase: Passphrase("other"), kdf: VaultFolder.fastKDF)
        }
        #expect(try folder.snapshot() == before)
        #expect(throws: VaultError.emptyPassphrase) {
            try Vault.create(at: folder.path + "2", passphrase: Passphrase(""), kdf: VaultFolder.fastKDF)
        }
    }

    @Test("folder 0700, files 0600")
    func permissions() async throws {
        let vault = try folder.create()
        try await VaultAccountDataSource(vault: vault).insert(VaultFolder.account(1))
        let attributes = try FileManager.default.attributesOfItem(atPath: folder.directory.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o700)
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.directory.path) {
            let file = try FileManager.default.attributesOfItem(atPath: folder.directory.appendingPathComponent(name).path)
            #expect((file[.posixPermissions] as? Int) == 0o600, "\(name)")
        }
    }

    @Test("no secret, issuer, account name, note or group in plaintext in any file, WAL included")
    func nothingInPlaintext() async throws {
        let vault = try folder.create()
        let source = VaultAccountDataSource(vault: vault)
        for number in 1...20 { try await source.insert(VaultFolder.account(number, note: "private note \(number)")) }
        for number in 1...20 {
            var account = VaultFolder.account(number, issuer: "Edited", note: "edited note \(number)")
            account.updatedAt = Date(timeIntervalSince1970: 1_800_000_000)
            #expect(try await source.replace(account))
        }
        #expect(try await source.remove(id: VaultFolder.account(20).id))
        // While open, and after closing.
        let open = try folder.snapshot()
        #expect(open.keys.contains("vault.sqlite"))
        try vault.close()
        for files in [open, try folder.snapshot()] {
            for (name, bytes) in files {
                for number in 1...20 {
                    let account = VaultFolder.account(number)
                    for needle in [
                        Data(account.secret.bytes), Data(account.secret.base32.utf8),
                        Data(account.secret.bytes).base64EncodedData(), Data("Issuer \(number)".utf8),
                        Data("Edited \(number)".utf8), Data(account.name.utf8), Data("note \(number)".utf8),
                        Data("Group\(number)".utf8),
                    ] {
                        #expect(bytes.range(of: needle) == nil, "\(name) holds plaintext of account \(number)")
                    }
                }
            }
        }
    }

    @Test("every write uses a fresh nonce")
    func freshNonces() async throws {
        let vault = try folder.create()
        let source = VaultAccountDataSource(vault: vault)
        var nonces: [Data] = []
        let pool = try DatabasePool(path: folder.path)
        for number in 1...10 {
            try await source.insert(VaultFolder.account(number))
            for _ in 0..<3 {
                _ = try await source.modify(id: VaultFolder.account(number).id) { $0.note += "x" }
                nonces.append(
                    try await pool.read { db in
                        try Data.fetchOne(
                            db, sql: "SELECT nonce FROM entry WHERE id = ?", arguments: [VaultFolder.account(number).id.uuidString])!
                    })
            }
        }
        nonces += try await pool.read { db in try Data.fetchAll(db, sql: "SELECT nonce FROM key_slot") }
        #expect(Set(nonces).count == nonces.count)
        #expect(nonces.allSatisfy { $0.count == 12 })
    }

    @Test("the default KDF cost is scrypt N=2^15, r=8, p=1, stored in the slot; the file has a rollback journal")
    func defaultKDF() throws {
        try Vault.create(at: folder.path, passphrase: Passphrase("p"))
        let queue = try DatabaseQueue(path: folder.path)
        #expect(try queue.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") } == "delete")
        let row = try queue.read { db in try Row.fetchOne(db, sql: "SELECT * FROM key_slot")! }
        #expect(row["kdf"] as String == "scrypt")
        #expect([row["kdf_n"], row["kdf_r"], row["kdf_p"]] as [Int] == [32768, 8, 1])
        _ = try Vault.open(at: folder.path, passphrase: Passphrase("p"))
    }

    @Test("two connections (as two processes) adding at once lose nothing and never report 'locked'")
    func concurrentWriters() async throws {
        _ = try folder.create()
        let first = VaultAccountDataSource(vault: try Vault.open(at: folder.path, passphrase: Passphrase("correct horse")))
        let second = VaultAccountDataSource(vault: try Vault.open(at: folder.path, passphrase: Passphrase("correct horse")))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for number in 0..<100 {
                group.addTask { try await (number.isMultiple(of: 2) ? first : second).insert(VaultFolder.account(number)) }
            }
            try await group.waitForAll()
        }
        #expect(Set(try await first.fetchAll().map(\.id)).count == 100)
    }
}
