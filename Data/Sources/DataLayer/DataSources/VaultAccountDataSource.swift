import Domain
import Foundation
import GRDB

/// The ALPHA and REAL data source: accounts in the encrypted vault, one AES-GCM ciphertext per
/// entry with a fresh nonce on every write, each change in one SQLite transaction.
public struct VaultAccountDataSource: AccountDataSource {
    private let vault: UnlockedVault

    public init(vault: UnlockedVault) {
        self.vault = vault
    }

    public func fetchAll() async throws -> [Account] {
        try VaultStore.guarding(path: vault.path) {
            try vault.pool.read { db in
                try Row.fetchAll(db, sql: "SELECT * FROM entry ORDER BY sort_order, created_at").map(decrypt)
            }
        }
    }

    /// SQLite's data_version (bumped by other connections' commits) and this connection's
    /// total changes (bumped by our own writes).
    public func revision() async throws -> AccountsRevision {
        try VaultStore.guarding(path: vault.path) {
            try vault.pool.read { db in
                let external = try Int64.fetchOne(db, sql: "PRAGMA data_version") ?? 0
                return AccountsRevision(UInt64(bitPattern: external), UInt64(bitPattern: Int64(db.totalChangesCount)))
            }
        }
    }

    public func insert(_ account: Account) async throws {
        try await insertAll([account])
    }

    public func insertAll(_ accounts: [Account]) async throws {
        let sealed = try accounts.map(encrypt)
        try VaultStore.guarding(path: vault.path) {
            try vault.pool.write { db in
                var order = (try Int.fetchOne(db, sql: "SELECT MAX(sort_order) FROM entry") ?? -1) + 1
                for (account, sealed) in zip(accounts, sealed) {
                    guard try !exists(account.id, db) else { throw RepositoryError.duplicateID(account.id) }
                    try db.execute(
                        sql: """
                            INSERT INTO entry (id, sort_order, created_at, updated_at, nonce, ciphertext)
                            VALUES (?, ?, ?, ?, ?, ?)
                            """,
                        arguments: [
                            account.id.uuidString, order, account.createdAt.timeIntervalSince1970,
                            account.updatedAt.timeIntervalSince1970, sealed.nonce, sealed.ciphertext,
                        ])
                    order += 1
                }
            }
        }
    }

    public func replace(_ account: Account) async throws {
        let sealed = try encrypt(account)
        try VaultStore.guarding(path: vault.path) {
            try vault.pool.write { db in try update(account, sealed: sealed, db) }
        }
    }

    public func remove(id: UUID) async throws {
        try VaultStore.guarding(path: vault.path) {
            try vault.pool.write { db in
                try db.execute(sql: "DELETE FROM entry WHERE id = ?", arguments: [id.uuidString])
                guard db.changesCount == 1 else { throw RepositoryError.notFound(id) }
            }
        }
    }

    public func reorder(_ ids: [UUID]) async throws {
        try VaultStore.guarding(path: vault.path) {
            try vault.pool.write { db in
                let existing = try String.fetchAll(db, sql: "SELECT id FROM entry ORDER BY sort_order, created_at")
                let given = ids.map(\.uuidString)
                let order = given.filter(existing.contains) + existing.filter { !given.contains($0) }
                for (position, id) in order.enumerated() {
                    try db.execute(sql: "UPDATE entry SET sort_order = ? WHERE id = ?", arguments: [position, id])
                }
            }
        }
    }

    public func modify(id: UUID, _ change: @Sendable (inout Account) throws -> Void) async throws -> Account {
        try VaultStore.guarding(path: vault.path) {
            try vault.pool.write { db in
                guard let row = try Row.fetchOne(db, sql: "SELECT * FROM entry WHERE id = ?", arguments: [id.uuidString])
                else { throw RepositoryError.notFound(id) }
                let before = try decrypt(row)
                var changed = before
                try change(&changed)
                try update(changed, sealed: try encrypt(changed), db)
                return before
            }
        }
    }

    // MARK: - Rows

    private func exists(_ id: UUID, _ db: Database) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM entry WHERE id = ?)", arguments: [id.uuidString]) ?? false
    }

    private func update(_ account: Account, sealed: (nonce: Data, ciphertext: Data), _ db: Database) throws {
        try db.execute(
            sql: "UPDATE entry SET updated_at = ?, nonce = ?, ciphertext = ? WHERE id = ?",
            arguments: [account.updatedAt.timeIntervalSince1970, sealed.nonce, sealed.ciphertext, account.id.uuidString])
        guard db.changesCount == 1 else { throw RepositoryError.notFound(account.id) }
    }

    private func additionalData(_ id: String) -> Data {
        Data("tokens/entry/v1".utf8) + CanonicalEncoding.bytes(vault.vaultID) + CanonicalEncoding.string(id)
    }

    private func encrypt(_ account: Account) throws -> (nonce: Data, ciphertext: Data) {
        var plaintext = try JSONEncoder().encode(EntryPayloadDTO(account))
        defer { plaintext.resetBytes(in: 0..<plaintext.count) }
        return try VaultCrypto.seal(plaintext, key: vault.entryKey, authenticating: additionalData(account.id.uuidString))
    }

    private func decrypt(_ row: Row) throws -> Account {
        let idText: String = row["id"]
        guard let id = UUID(uuidString: idText),
            var plaintext = VaultCrypto.open(
                nonce: row["nonce"], ciphertext: row["ciphertext"], key: vault.entryKey,
                authenticating: additionalData(idText))
        else { throw VaultError.entryDamaged(id: idText) }
        defer { plaintext.resetBytes(in: 0..<plaintext.count) }
        guard let payload = try? JSONDecoder().decode(EntryPayloadDTO.self, from: plaintext),
            let account = payload.toDomain(
                id: id, createdAt: Date(timeIntervalSince1970: row["created_at"]),
                updatedAt: Date(timeIntervalSince1970: row["updated_at"]))
        else { throw VaultError.entryDamaged(id: idText) }
        return account
    }
}
