import DataLayer
import Domain
import DomainTestSupport
import Foundation
import GRDB
import Testing

/// A temporary folder holding a vault, removed at the end of the test.
final class VaultFolder {
    static let fastKDF = ScryptParameters(n: 1 << 10, r: 8, p: 1)

    let directory: URL
    var path: String { directory.appendingPathComponent("vault.sqlite").path }

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("tokens-vault-\(UUID())/vault")
    }

    deinit { try? FileManager.default.removeItem(at: directory.deletingLastPathComponent()) }

    /// Creates the vault with `passphrase` and returns it unlocked.
    func create(_ passphrase: String = "correct horse") throws -> UnlockedVault {
        try Vault.create(at: path, passphrase: Passphrase(passphrase), kdf: Self.fastKDF)
        return try Vault.open(at: path, passphrase: Passphrase(passphrase))
    }

    /// Changes the vault with raw SQL through a connection of its own, as an attacker, a bad
    /// disk or another program would.
    func tamper(_ sql: String, arguments: StatementArguments = []) throws {
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in try db.execute(sql: sql, arguments: arguments) }
        try queue.close()
    }

    /// Reads the vault file through a connection of its own.
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.read(body)
    }

    /// Rows of raw SQL from the vault file.
    func rows(_ sql: String) throws -> [Row] {
        try read { db in try Row.fetchAll(db, sql: sql) }
    }

    /// Every row of `tables` as text, to compare the file before and after.
    func contents(of tables: [String]) throws -> [[String]] {
        try tables.flatMap { table in
            try rows("SELECT * FROM \(table) ORDER BY 1").map { row in row.columnNames.map { "\(row[$0] as DatabaseValue)" } }
        }
    }

    /// Every file in the vault folder and its bytes.
    func snapshot() throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
            files[name] = try Data(contentsOf: directory.appendingPathComponent(name))
        }
        return files
    }

    static func account(_ number: Int, issuer: String = "Issuer", note: String = "", kind: OTPKind = .totp(period: 30)) -> Account {
        Account.stub(
            id: UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", number))!, issuer: "\(issuer) \(number)",
            name: "user\(number)@example.com", secret: Secret(bytes: Array("secret-\(number)-xyzzy-plugh".utf8)), kind: kind,
            note: note, groups: ["Group\(number)"], createdAt: Date(timeIntervalSince1970: 1_700_000_000),
            updatedAt: Date(timeIntervalSince1970: 1_700_000_000))
    }
}

extension VaultFolder {
    /// A closed vault with two accounts.
    func makeClosedVault() async throws {
        let vault = try create()
        let source = VaultAccountDataSource(vault: vault)
        try await source.insert(VaultFolder.account(1))
        try await source.insert(VaultFolder.account(2))
        try vault.close()
    }

    /// Opens with `passphrase` and reads every account, expecting `error`, and checks that no
    /// byte of the vault's files changed.
    func expectFailure(_ error: VaultError, passphrase: String = "correct horse", sourceLocation: SourceLocation = #_sourceLocation)
        async throws
    {
        let before = try snapshot()
        do {
            let vault = try Vault.open(at: path, passphrase: Passphrase(passphrase))
            defer { try? vault.close() }
            _ = try await VaultAccountDataSource(vault: vault).fetchAll()
            Issue.record("expected \(error)", sourceLocation: sourceLocation)
        } catch let thrown as VaultError {
            #expect(thrown == error, sourceLocation: sourceLocation)
        }
        let after = try snapshot()
        #expect(after.keys.sorted() == before.keys.sorted(), sourceLocation: sourceLocation)
        #expect(after == before, "the vault files changed", sourceLocation: sourceLocation)
    }
}

extension [Account] {
    /// The accounts without their dates: what the user sees of them, to compare across machines.
    var withoutDates: [Account] {
        map {
            var account = $0
            account.createdAt = .distantPast
            account.updatedAt = .distantPast
            return account
        }
    }
}
