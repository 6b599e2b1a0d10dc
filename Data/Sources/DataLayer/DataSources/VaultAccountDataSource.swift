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
        try vault.mapEntries { try EntryCipher.open($0, keys: $1) }
    }

    /// Only the matching entries are read and checked (`UnlockedVault.search`).
    public func search(_ query: AccountQuery) async throws -> [Account] {
        try vault.search(query)
    }

    /// Only the index's ids and the entries they name are read and checked.
    public func accounts(idPrefix prefix: AccountIDPrefix) async throws -> [Account] {
        try vault.accounts(idPrefix: prefix)
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
        try changingInPlace { db, keys, patch -> Void in
            let record = try existing(account.id, db, patch)
            try VaultEntries.reseal(record, as: account, keys: keys, patch: patch, db)
            try SyncJournal.record(db, keys: keys, cache: vault.syncRows, patch: patch, now: clock.now()) { try $0.edited(account) }
        } != nil
    }

    public func remove(id: UUID) async throws -> Bool {
        try changingExisting { db, keys -> Void in
            _ = try existing(id, db, nil)
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
        try changingInPlace { db, keys, patch in
            let record = try existing(id, db, patch)
            let before = try EntryCipher.open(record, keys: keys)
            var changed = before
            try change(&changed)
            try VaultEntries.reseal(record, as: changed, keys: keys, patch: patch, db)
            try SyncJournal.record(db, keys: keys, cache: vault.syncRows, patch: patch, now: clock.now()) { try $0.edited(changed) }
            return before
        }
    }

    /// The entry `id`, checked against the index in a write in place; `Absent` if there is none.
    private func existing(_ id: UUID, _ db: Database, _ patch: VaultIndexPatch?) throws -> EntryRecord {
        let record = try EntryTable.row(db, id: id.uuidString)
        try patch?.check(entry: id.uuidString, record)
        guard let record else { throw Absent() }
        return record
    }

    /// A change to one account's row (an edit, an HOTP code) written in place: that row and the
    /// sync rows the journal reads checked against the index, no other row read
    /// (`UnlockedVault.writeInPlace`); the whole write when it cannot be (the journal adds a row).
    private func changingInPlace<T>(_ body: (Database, VaultKeys, VaultIndexPatch?) throws -> T) throws -> T? {
        do {
            if let result = try vault.writeInPlace({ db, keys, patch in try body(db, keys, patch) }) { return result }
            return try vault.write { db, keys in try body(db, keys, nil) }
        } catch is Absent {
            return nil
        }
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
