import Domain
import Foundation
import GRDB

/// The ALPHA and REAL data source: accounts in the encrypted vault, one AES-GCM ciphertext per
/// entry with a fresh nonce and a new version on every write, each change in one SQLite
/// transaction that `UnlockedVault` checks before and seals after. In a vault that syncs, each
/// change is recorded for the server in that same transaction (`SyncJournal`), stamped by `clock`.
public struct VaultAccountDataSource: AccountDataSource {
    private let vault: UnlockedVault
    private let clock: any WallClock

    public init(vault: UnlockedVault, clock: any WallClock = SystemClock()) {
        self.vault = vault
        self.clock = clock
    }

    public func fetchAll() async throws -> [Account] {
        try vault.readEntries { keys, records in try records.mappedOnAllCores { try EntryCipher.open($0, keys: keys) } }
    }

    /// Only the matching entries are read and checked (`UnlockedVault.search`).
    public func search(_ query: AccountQuery) async throws -> [Account] {
        try vault.search(query)
    }

    /// Every entry is still checked against the manifest; only the one asked for is decrypted.
    public func fetch(id: UUID) async throws -> Account? {
        try vault.readEntries { keys, records in
            try records.first { $0.id == id.uuidString }.map { try EntryCipher.open($0, keys: keys) }
        }
    }

    public func revision() async throws -> AccountsRevision {
        let (external, own) = try vault.revision()
        return AccountsRevision(external, own)
    }

    public func insert(_ account: Account) async throws {
        try await insertAll([account])
    }

    public func insertAll(_ accounts: [Account]) async throws {
        try vault.write { db, keys in
            try EntryTable.insert(accounts, keys: keys, db)
            try SyncJournal.record(db, keys: keys, cache: vault.syncRows, now: clock.now()) { try $0.added(accounts) }
        }
    }

    public func replace(_ account: Account) async throws -> Bool {
        try changingExisting { db, keys -> Void in
            let record = try existing(account.id, db)
            let sealed = try EntryCipher.seal(account, version: record.version + 1, keys: keys)
            try EntryTable.reseal(record, updatedAt: account.updatedAt.timeIntervalSince1970, sealed: sealed, db)
            try SyncJournal.record(db, keys: keys, cache: vault.syncRows, now: clock.now()) { try $0.edited(account) }
        } != nil
    }

    public func remove(id: UUID) async throws -> Bool {
        try changingExisting { db, keys -> Void in
            _ = try existing(id, db)
            try EntryTable.delete(id.uuidString, db)
            try SyncJournal.record(db, keys: keys, cache: vault.syncRows, now: clock.now()) { try $0.deleted(id) }
        } != nil
    }

    public func reorder(_ ids: [UUID]) async throws {
        try vault.write { db, keys in
            let order = AccountOrder.reordered(try EntryTable.orderedIDs(db), by: ids.map(\.uuidString)) { $0 }
            try EntryTable.order(order, db)
            try SyncJournal.record(db, keys: keys, cache: vault.syncRows, now: clock.now()) {
                try $0.reordered(order.compactMap(UUID.init(uuidString:)))
            }
        }
    }

    public func modify(id: UUID, _ change: @Sendable (inout Account) throws -> Void) async throws -> Account? {
        try changingExisting { db, keys in
            let record = try existing(id, db)
            let before = try EntryCipher.open(record, keys: keys)
            var changed = before
            try change(&changed)
            let sealed = try EntryCipher.seal(changed, version: record.version + 1, keys: keys)
            try EntryTable.reseal(record, updatedAt: changed.updatedAt.timeIntervalSince1970, sealed: sealed, db)
            try SyncJournal.record(db, keys: keys, cache: vault.syncRows, now: clock.now()) { try $0.edited(changed) }
            return before
        }
    }

    private func existing(_ id: UUID, _ db: Database) throws -> EntryRecord {
        guard let record = try EntryTable.row(db, id: id.uuidString) else { throw Absent() }
        return record
    }

    /// A write to one account that the vault may not have: its absence rolls the transaction
    /// back (the header is not sealed again) and answers nil.
    private func changingExisting<T>(_ body: (Database, VaultKeys) throws -> T) throws -> T? {
        do {
            return try vault.write(body)
        } catch is Absent {
            return nil
        }
    }

    private struct Absent: Error {}
}
