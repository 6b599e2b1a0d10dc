import Domain
import Foundation
import GRDB
import Testing

@testable import DataLayer

/// Every way unlocking can fail: a distinct, clear error, and the files byte-identical afterwards.
@Suite("Vault failures change nothing")
struct VaultFailureTests {
    let folder = try! VaultFolder()

    func makeVault() async throws { try await folder.makeClosedVault() }
    func tamper(_ sql: String) throws { try folder.tamper(sql) }
    func expectFailure(_ error: VaultError, passphrase: String = "correct horse", sourceLocation: SourceLocation = #_sourceLocation)
        async throws
    {
        try await folder.expectFailure(error, passphrase: passphrase, sourceLocation: sourceLocation)
    }

    @Test("wrong passphrase")
    func wrongPassphrase() async throws {
        try await makeVault()
        try await expectFailure(.wrongPassphrase, passphrase: "Correct horse")
        #expect(VaultError.wrongPassphrase.description == "wrong passphrase")
    }

    @Test("header tampered: the vault id")
    func headerTampered() async throws {
        try await makeVault()
        try tamper("UPDATE header SET vault_id = zeroblob(16)")
        try await expectFailure(.headerTampered)
    }

    /// A slot's KDF parameters are read before the header MAC can be checked (the MAC key is
    /// what the slot unwraps), so a weakened cost or a changed salt derives a different key,
    /// which does not unwrap the master key: the vault does not open and nothing changes. It
    /// says "wrong passphrase", not "tampered"; binding the parameters to the wrapped key
    /// would tell the two apart (a format change, not made yet).
    @Test(
        "a key slot's KDF cost weakened or its salt changed: the vault does not open, and nothing changes",
        arguments: [
            "UPDATE key_slot SET kdf_n = kdf_n / 2", "UPDATE key_slot SET kdf_r = 1",
            "UPDATE key_slot SET salt = zeroblob(length(salt))",
        ])
    func slotParametersChanged(sql: String) async throws {
        try await makeVault()
        try tamper(sql)
        try await expectFailure(.wrongPassphrase)
    }

    @Test("header tampered: a key slot added")
    func slotAdded() async throws {
        try await makeVault()
        try tamper("INSERT INTO key_slot SELECT zeroblob(16), kdf, kdf_n, kdf_r, kdf_p, salt, nonce, wrapped_key FROM key_slot")
        try await expectFailure(.headerTampered)
    }

    @Test("a planted slot asking for 4 GiB of scrypt is skipped, never run; the header check still fails")
    func costlySlotSkipped() async throws {
        try await makeVault()
        try tamper("INSERT INTO key_slot SELECT zeroblob(16), kdf, 4194304, 8, 16, salt, nonce, wrapped_key FROM key_slot")
        try await expectFailure(.headerTampered)
    }

    @Test("at most 8 slots are tried: planted slots ahead of the real one cannot make an unlock run scrypt 20 times")
    func slotCountBounded() async throws {
        try await makeVault()
        for index in 0..<20 {
            try tamper(
                "INSERT INTO key_slot SELECT zeroblob(15) || char(\(index)), kdf, kdf_n, kdf_r, kdf_p, randomblob(16), nonce, wrapped_key FROM key_slot WHERE length(id) = 16 LIMIT 1"
            )
        }
        try await expectFailure(.wrongPassphrase)
    }

    @Test(
        "scrypt bounds: N up to 2^20, r up to 32, p up to 4, 256 MiB and 1 GiB of passes",
        arguments: [
            (ScryptParameters.default, true), (ScryptParameters(n: 1 << 20, r: 2, p: 1), true),
            (ScryptParameters(n: 1 << 21, r: 1, p: 1), false), (ScryptParameters(n: 1 << 20, r: 8, p: 1), false),
            (ScryptParameters(n: 1 << 15, r: 8, p: 5), false), (ScryptParameters(n: 1 << 18, r: 8, p: 4), true),
            (ScryptParameters(n: 1 << 18, r: 8, p: 5), false), (ScryptParameters(n: 3000, r: 8, p: 1), false),
            (ScryptParameters(n: 1, r: 8, p: 1), false), (ScryptParameters(n: 1 << 10, r: 0, p: 1), false),
        ])
    func scryptBounds(parameters: ScryptParameters, valid: Bool) {
        #expect(parameters.isValid == valid)
    }

    @Test("ciphertext tampered: found at unlock by the manifest")
    func ciphertextTampered() async throws {
        try await makeVault()
        try tamper("UPDATE entry SET ciphertext = zeroblob(length(ciphertext)) WHERE sort_order = 1")
        try await expectFailure(.modified(.entries))
    }

    @Test("ciphertexts swapped between entries")
    func ciphertextSwapped() async throws {
        try await makeVault()
        try tamper(
            """
            UPDATE entry SET (nonce, ciphertext) = (SELECT nonce, ciphertext FROM entry WHERE sort_order = 0)
            WHERE sort_order = 1
            """)
        try await expectFailure(.modified(.entries))
    }

    @Test("a newer format version")
    func newerFormat() async throws {
        try await makeVault()
        try tamper("UPDATE header SET format_version = 99")
        try await expectFailure(.newerFormat(found: 99, supported: Vault.formatVersion))
    }

    @Test("a truncated file")
    func truncated() async throws {
        try await makeVault()
        let data = try Data(contentsOf: URL(fileURLWithPath: folder.path))
        try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: folder.path))
        try await expectFailure(.damaged(path: folder.path, reason: "the file is truncated or corrupt"))
        try Data(data.prefix(40)).write(to: URL(fileURLWithPath: folder.path))
        try await expectFailure(.damaged(path: folder.path, reason: "the file is truncated"))
    }

    @Test("not an SQLite file")
    func notSQLite() async throws {
        try FileManager.default.createDirectory(at: folder.directory, withIntermediateDirectories: true)
        try Data(String(repeating: "otpauth://totp/not-a-vault\n", count: 10).utf8).write(to: URL(fileURLWithPath: folder.path))
        try await expectFailure(.notAVault(path: folder.path))
    }

    @Test("another program's SQLite database: not a Tokens vault, not a damaged one; init over it refuses and leaves it")
    func foreignDatabase() async throws {
        try FileManager.default.createDirectory(at: folder.directory, withIntermediateDirectories: true)
        let queue = try DatabaseQueue(path: folder.path)
        try await queue.write { db in try db.execute(sql: "CREATE TABLE bookmarks (url TEXT)") }
        try queue.close()
        let before = try Data(contentsOf: URL(fileURLWithPath: folder.path))
        try await expectFailure(.foreignDatabase(path: folder.path))
        #expect(throws: VaultError.occupied(path: folder.path)) {
            try Vault.create(at: folder.path, passphrase: Passphrase("correct horse"), kdf: VaultFolder.fastKDF)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder.path)) == before)
        try FileManager.default.removeItem(atPath: folder.path)
        try await makeVault()
        #expect(throws: VaultError.alreadyExists(path: folder.path)) {
            try Vault.create(at: folder.path, passphrase: Passphrase("correct horse"), kdf: VaultFolder.fastKDF)
        }
    }

    @Test("no vault yet")
    func missing() async throws {
        #expect(throws: VaultError.notInitialized(path: folder.path)) {
            try Vault.open(at: folder.path, passphrase: Passphrase("x"))
        }
        #expect(!FileManager.default.fileExists(atPath: folder.path))
    }

    @Test("the errors are distinct and never mention secrets")
    func distinctMessages() {
        let errors: [VaultError] = [
            .wrongPassphrase, .headerTampered, .entryDamaged(id: "x"), .notAVault(path: "p"), .foreignDatabase(path: "p"),
            .occupied(path: "p"), .damaged(path: "p", reason: "r"), .newerFormat(found: 2, supported: 1), .notInitialized(path: "p"),
        ]
        #expect(Set(errors.map(\.description)).count == errors.count)
    }
}
