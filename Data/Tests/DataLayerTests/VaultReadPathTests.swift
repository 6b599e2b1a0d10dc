import Crypto
import Domain
import Foundation
import GRDB
import Testing

@testable import DataLayer

/// The read path (`VaultReadPath`, `SQLiteReadConnection`): a current vault is opened and read
/// without GRDB, with every check of the GRDB path; whatever is unusual goes to that path.
@Suite("The vault's read path")
struct VaultReadPathTests {
    let folder = try! VaultFolder()

    /// Opens with the passphrase, counting how often a key is asked for.
    private func open(_ passphrase: String = "correct horse", asked: inout Int) throws -> UnlockedVault {
        try Vault.open(at: folder.path) { header in
            asked += 1
            for slot in header.slots {
                if let key = try slot.unwrap(with: Passphrase(passphrase)) { return key }
            }
            throw VaultError.wrongPassphrase
        }
    }

    /// Runs `body` with a closed vault of two accounts opened twice (as by two processes),
    /// closing both after.
    private func withTwoOpenVaults(_ body: (UnlockedVault, UnlockedVault) async throws -> Void) async throws {
        try await folder.makeClosedVault()
        var asked = 0
        let (first, second) = (try open(asked: &asked), try open(asked: &asked))
        defer {
            try? first.close()
            try? second.close()
        }
        try await body(first, second)
    }

    @Test("a current vault opens and reads without GRDB's connection, asking for its key once")
    func readsWithoutGRDB() async throws {
        try await folder.makeClosedVault()
        var asked = 0
        let vault = try open(asked: &asked)
        defer { try? vault.close() }
        let accounts = try await VaultAccountDataSource(vault: vault).fetchAll()
        #expect(accounts.map(\.issuer) == ["Issuer 1", "Issuer 2"])
        #expect(asked == 1)
        #expect(vault.readsThroughReadPath)
        #expect(!vault.hasOpenedGRDB)
    }

    @Test("a write opens GRDB's connection; the read path then sees it, and so does another vault's")
    func writesThenReads() async throws {
        try await withTwoOpenVaults { first, second in
            let before = try await VaultAccountDataSource(vault: second).revision()
            try await VaultAccountDataSource(vault: first).insert(VaultFolder.account(3))
            #expect(first.hasOpenedGRDB)
            #expect(try await VaultAccountDataSource(vault: first).fetchAll().count == 3)
            #expect(try await VaultAccountDataSource(vault: second).fetchAll().count == 3)
            #expect(try await VaultAccountDataSource(vault: second).revision() != before)
            #expect(!second.hasOpenedGRDB)
        }
    }

    /// A closed vault of two accounts in WAL mode (as earlier builds made it), opened and read on
    /// the read path, this process holding its locks on the file (WAL's shared lock lasts as long
    /// as a connection).
    private func readThroughReadPath() async throws -> UnlockedVault {
        try await folder.makeClosedVault()
        let queue = try DatabaseQueue(path: folder.path)
        try await queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA journal_mode = WAL") }
        try queue.close()
        var asked = 0
        let vault = try open(asked: &asked)
        _ = try await VaultAccountDataSource(vault: vault).fetchAll()
        #expect(vault.readsThroughReadPath)
        #expect(ProcessLocks.held(onFileAt: folder.path) == true)
        return vault
    }

    /// A lost write seen once in CI: the first write opened GRDB's connection, whose check of the
    /// file's first bytes closed a descriptor of the vault, and closing any descriptor of a file
    /// drops every POSIX lock the process holds on it; another process closing its last connection
    /// then took the WAL for unused and deleted it, and this process's later commits were lost.
    /// (A vault in rollback-journal mode holds no lock between commands, and has no WAL to lose.)
    @Test(
        "GRDB's connection opened after a read-path open of a WAL vault keeps this process's locks on it; the write leaves WAL",
        .enabled(if: ProcessLocks.held(onFileAt: "/proc/self/exe") != nil, "no /proc/locks here"))
    func writeKeepsLocks() async throws {
        let vault = try await readThroughReadPath()
        defer { try? vault.close() }
        // Opens GRDB's connection, as a write's first step does.
        #expect(try vault.slotCount() == 1)
        #expect(vault.hasOpenedGRDB)
        #expect(ProcessLocks.held(onFileAt: folder.path) == true)
        try await VaultAccountDataSource(vault: vault).insert(VaultFolder.account(3))
        #expect(try folder.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") } == "delete")
        try await VaultAccountDataSource(vault: vault).insert(VaultFolder.account(4))
        #expect(try await VaultAccountDataSource(vault: vault).fetchAll().count == 4)
    }

    @Test(
        "the lock check can fail: closing any descriptor of the vault drops this process's locks on it",
        .enabled(if: ProcessLocks.held(onFileAt: "/proc/self/exe") != nil, "no /proc/locks here"))
    func lockCheckCanFail() async throws {
        let vault = try await readThroughReadPath()
        defer { try? vault.close() }
        let descriptor = Foundation.open(folder.path, O_RDONLY)
        #expect(descriptor >= 0)
        close(descriptor)
        #expect(ProcessLocks.held(onFileAt: folder.path) == false)
    }

    @Test(
        "the read path reads the file through a mapping of it; a file another connection shrank meanwhile is refused, never read past its end",
        .enabled(if: FileManager.default.isReadableFile(atPath: "/proc/self/maps"), "no /proc/self/maps here"))
    func readsThroughMapping() async throws {
        let made = try folder.create()
        try await VaultAccountDataSource(vault: made).insertAll((1...300).map { VaultFolder.account($0) })
        try made.close()
        var asked = 0
        let vault = try open(asked: &asked)
        defer { try? vault.close() }
        let found = try await VaultAccountDataSource(vault: vault).search(AccountQuery("Issuer 299"))
        #expect(found.map(\.issuer) == ["Issuer 299"])
        #expect(vault.readsThroughReadPath)
        // Mapped while a read transaction holds the file (SQLite may unmap it between them).
        let file = URL(fileURLWithPath: folder.path).resolvingSymlinksInPath().path
        let mapped = try vault.readingHeader { _, _, _ in ProcFile.text("/proc/self/maps")?.contains(file) }
        #expect(mapped == true)
        let size = { try FileManager.default.attributesOfItem(atPath: self.folder.path)[.size] as? Int ?? 0 }
        let before = try size()
        let queue = try DatabaseQueue(path: folder.path)
        try await queue.writeWithoutTransaction { db in
            try db.execute(sql: "DELETE FROM entry")
            try db.execute(sql: "VACUUM")
        }
        try queue.close()
        #expect(try size() < before / 2)
        await #expect(throws: VaultError.modified(.entries)) {
            try await VaultAccountDataSource(vault: vault).search(AccountQuery("Issuer 7"))
        }
        await #expect(throws: VaultError.modified(.entries)) { try await VaultAccountDataSource(vault: vault).fetchAll() }
    }

    @Test("a change outside Tokens after the open is refused at the next read")
    func changedAfterOpen() async throws {
        try await folder.makeClosedVault()
        var asked = 0
        let vault = try open(asked: &asked)
        defer { try? vault.close() }
        _ = try await VaultAccountDataSource(vault: vault).fetchAll()
        try folder.tamper("UPDATE entry SET sort_order = sort_order + 10")
        await #expect(throws: VaultError.modified(.entries)) { try await VaultAccountDataSource(vault: vault).fetchAll() }
        try folder.tamper("UPDATE header SET revision = revision + 1")
        await #expect(throws: VaultError.headerTampered) { try await VaultAccountDataSource(vault: vault).fetchAll() }
    }

    @Test("GRDB's first read and first write after the read path checked the rows take that check; verify checks them again")
    func grdbTakesReadPathCheck() async throws {
        try await withTwoOpenVaults { reader, writer in
            // The open checks no row; the first read of every entry checks them all, once.
            #expect(reader.manifestChecks == 0)
            _ = try await VaultAccountDataSource(vault: reader).fetchAll()
            #expect(reader.manifestChecks == 1)
            #expect(try reader.read { _, _, records in records.count } == 2)
            #expect(reader.hasOpenedGRDB)
            #expect(reader.manifestChecks == 1)
            try reader.verify()
            #expect(reader.manifestChecks == 2)
            _ = try await VaultAccountDataSource(vault: writer).fetchAll()
            try await VaultAccountDataSource(vault: writer).insert(VaultFolder.account(3))
            #expect(writer.manifestChecks == 1)
            #expect(try await VaultAccountDataSource(vault: reader).fetchAll().count == 3)
        }
    }

    @Test("a change outside Tokens between a read-path open and GRDB's first read or write is refused there, and nothing is written")
    func changedBeforeGRDB() async throws {
        try await withTwoOpenVaults { reader, writer in
            try folder.tamper("UPDATE entry SET sort_order = sort_order + 10")
            #expect(throws: VaultError.modified(.entries)) { try reader.read { _, _, _ in } }
            await #expect(throws: VaultError.modified(.entries)) {
                try await VaultAccountDataSource(vault: writer).insert(VaultFolder.account(3))
            }
            #expect(try folder.rows("SELECT id FROM entry").count == 2)
        }
    }

    @Test("a passphrase changed by another tokens after the open: the next read says so")
    func rekeyedAfterOpen() async throws {
        try await withTwoOpenVaults { reader, writer in
            try writer.changePassphrase(to: Passphrase("battery staple"), kdf: VaultFolder.fastKDF)
            await #expect(throws: VaultError.changedSinceUnlock) { try await VaultAccountDataSource(vault: reader).fetchAll() }
        }
    }

    @Test("a changed row is refused at the first read of it; an unusual schema goes to the GRDB path before any key is asked for")
    func unusualFile() async throws {
        try await folder.makeClosedVault()
        try folder.tamper("UPDATE entry SET sort_order = sort_order + 10")
        var asked = 0
        let vault = try open(asked: &asked)
        defer { try? vault.close() }
        await #expect(throws: VaultError.modified(.entries)) { try await VaultAccountDataSource(vault: vault).fetchAll() }
        #expect(asked == 1)
        try folder.tamper("CREATE TABLE planted (x)")
        #expect(throws: VaultError.modified(.foreignSchema(kind: "table", name: "planted"))) { try open(asked: &asked) }
        #expect(asked == 1, "a foreign schema is refused before any key is looked for")
    }

    @Test("closed: reads and writes are refused, nothing is reopened")
    func closed() async throws {
        try await folder.makeClosedVault()
        var asked = 0
        let vault = try open(asked: &asked)
        try vault.close()
        await #expect(throws: VaultError.locked) { try await VaultAccountDataSource(vault: vault).fetchAll() }
        await #expect(throws: VaultError.locked) { try await VaultAccountDataSource(vault: vault).insert(VaultFolder.account(3)) }
        #expect(!vault.hasOpenedGRDB)
    }
}

/// The encodings the read path's speed-ups wrote anew give the same bytes as before.
@Suite("Vault encodings, as they were")
struct VaultEncodingTests {
    @Test("sub-keys: HMAC written out equals swift-crypto's HKDF")
    func subkeyIsHKDF() {
        var generator = SystemRandomNumberGenerator()
        for index in 0..<50 {
            let master = SymmetricKey(size: .bits256)
            let salt = Data((0..<(index % 20)).map { _ in UInt8.random(in: 0...255, using: &generator) })
            let purpose = "tokens/purpose-\(index)"
            let expected = HKDF<SHA256>.deriveKey(
                inputKeyMaterial: master, salt: salt, info: Data(purpose.utf8), outputByteCount: 32)
            #expect(VaultCrypto.subkey(of: master, purpose: purpose, salt: salt) == expected)
        }
    }

    @Test("the manifest and an entry's associated data: the same bytes as the field-by-field encoding")
    func sameBytes() {
        let vaultID = Data((0..<16).map { UInt8($0) })
        let records = (0..<5).map { index in
            EntryRecord(
                id: UUID().uuidString, sortOrder: index, createdAt: 1_700_000_000.5 + Double(index), updatedAt: 1_700_000_100.25,
                version: index + 1, nonce: Data(repeating: UInt8(index), count: 12), ciphertext: Data(repeating: 7, count: 40 + index))
        }
        let sync = [
            SealedSyncRow(table: .entry, id: records[0].id, version: 2, nonce: Data(repeating: 1, count: 12), ciphertext: Data([1, 2, 3])),
            SealedSyncRow(table: .account, id: "1", version: 1, nonce: Data(repeating: 2, count: 12), ciphertext: Data([4])),
        ]
        for format in [2, 3] {
            var hash = SHA256()
            hash.update(data: Data("tokens/manifest/v\(format)".utf8) + Self.integer(records.count))
            for record in records.sorted(by: { $0.id < $1.id }) {
                hash.update(data: Self.string(record.id))
                hash.update(
                    data: Self.integer(record.sortOrder) + Self.integer(Int(truncatingIfNeeded: record.createdAt.bitPattern))
                        + Self.integer(Int(truncatingIfNeeded: record.updatedAt.bitPattern)) + Self.integer(record.version))
                hash.update(data: Self.bytes(record.nonce))
                hash.update(data: Self.bytes(record.ciphertext))
            }
            if format == 3 {
                hash.update(data: Self.integer(sync.count))
                for row in sync.sorted(by: { ($0.table.rawValue, $0.id) < ($1.table.rawValue, $1.id) }) {
                    hash.update(data: Self.string(row.table.rawValue) + Self.string(row.id))
                    hash.update(data: Self.integer(row.version))
                    hash.update(data: Self.bytes(row.nonce))
                    hash.update(data: Self.bytes(row.ciphertext))
                }
            }
            #expect(VaultManifest.digest(records, sync: sync, format: format) == Data(hash.finalize()))
        }
        let id = records[0].id
        #expect(
            EntryCipher.additionalData(format: 1, vaultID: vaultID, id: id, version: 4)
                == Data("tokens/entry/v1".utf8) + Self.bytes(vaultID) + Self.string(id))
        #expect(
            EntryCipher.additionalData(format: 3, vaultID: vaultID, id: id, version: 4)
                == Data("tokens/entry/v2".utf8) + Self.bytes(vaultID) + Self.string(id) + Self.integer(4))
    }

    private static func integer(_ value: Int) -> Data {
        withUnsafeBytes(of: UInt64(truncatingIfNeeded: value).bigEndian) { Data($0) }
    }

    private static func bytes(_ bytes: Data) -> Data { integer(bytes.count) + bytes }

    private static func string(_ text: String) -> Data { bytes(Data(text.utf8)) }
}
