import Domain
import Foundation
import GRDB

/// The `entry` table's statements, all of them: the account data source, a sync round, a
/// change of passphrase and the migrations read and write entries only through here. A write
/// must change exactly the rows it names (`VaultRows`), and a new entry goes after the last.
enum EntryTable {
    /// Every entry, in the user's order.
    static func all(_ db: some VaultQuerying) throws -> [EntryRecord] {
        let records = try db.rows("SELECT * FROM entry") { try EntryRecord(row: $0) }
        return arranged(records, userOrder(of: records))
    }

    /// Every entry in the table's order, each `batch` rows handed to `read` as soon as they
    /// are read (so that other threads can work on them while the rest are read).
    static func all(_ db: some VaultQuerying, batch: Int, _ read: ([EntryRecord]) -> Void) throws -> [EntryRecord] {
        var pending: [EntryRecord] = []
        pending.reserveCapacity(batch)
        let records = try db.rows("SELECT * FROM entry") { row -> EntryRecord in
            let record = try EntryRecord(row: row)
            pending.append(record)
            if pending.count == batch {
                read(pending)
                pending.removeAll(keepingCapacity: true)
            }
            return record
        }
        if !pending.isEmpty { read(pending) }
        return records
    }

    /// The positions of `records` in the user's order (by sort order, then creation, then
    /// position), or nil when they are in it already, as the table keeps them unless entries
    /// were moved. Sorted here, not by SQLite: the table has no index on the order, and
    /// SQLite's sort copies every row, ciphertext and all (a third of reading 10 000 entries).
    static func userOrder(of records: [EntryRecord]) -> [Int]? {
        func before(_ a: Int, _ b: Int) -> Bool {
            (records[a].sortOrder, records[a].createdAt, a) < (records[b].sortOrder, records[b].createdAt, b)
        }
        guard !records.indices.dropFirst().allSatisfy({ before($0 - 1, $0) }) else { return nil }
        return records.indices.sorted(by: before)
    }

    /// `elements` (one for each record, in the table's order) in the user's order `userOrder`
    /// gave: as they are when it gave nil.
    static func arranged<Element>(_ elements: [Element], _ order: [Int]?) -> [Element] {
        order.map { $0.map { elements[$0] } } ?? elements
    }

    /// The entry `id`, if the vault has it.
    static func row(_ db: Database, id: String) throws -> EntryRecord? {
        // Compiled once per connection: a join of 10 000 accounts spent a tenth of its time
        // compiling this statement for each account.
        let statement = try db.cachedStatement(sql: "SELECT * FROM entry WHERE id = ?")
        return try Row.fetchOne(statement, arguments: [id]).map { try EntryRecord(row: $0) }
    }

    /// The entries of `ids` the vault has, by id: a few read by their key, many by one scan.
    static func rows(_ db: some VaultQuerying, ids: [String]) throws -> [String: EntryRecord] {
        guard !ids.isEmpty else { return [:] }
        let sql: String
        if ids.count <= 64 {
            sql = "SELECT * FROM entry WHERE id IN (" + VaultRows.literals(ids) + ")"
        } else {
            sql = "SELECT * FROM entry"
        }
        let wanted = Set(ids)
        var found: [String: EntryRecord] = [:]
        for record in try db.rows(sql, { try EntryRecord(row: $0) }) where wanted.contains(record.id) { found[record.id] = record }
        return found
    }

    /// Every entry's id, in the user's order.
    static func orderedIDs(_ db: Database) throws -> [String] {
        try String.fetchAll(db, sql: "SELECT id FROM entry ORDER BY sort_order, created_at")
    }

    /// Seals `accounts` as new entries (version 1) after the last one, in the order given.
    /// An id the vault (or the batch) already has fails the whole write.
    static func insert(_ accounts: [Account], keys: VaultKeys, _ db: Database) throws {
        var order = (try Int.fetchOne(db, sql: "SELECT MAX(sort_order) FROM entry") ?? -1) + 1
        // One statement compiled once for the whole batch: an import of 10 000 accounts would
        // otherwise compile 10 000.
        let insert = try db.cachedStatement(
            sql: "INSERT INTO entry (id, sort_order, created_at, updated_at, version, nonce, ciphertext) VALUES (?, ?, ?, ?, 1, ?, ?)")
        for account in accounts {
            let sealed = try EntryCipher.seal(account, version: 1, keys: keys)
            do {
                try insert.execute(arguments: [
                    account.id.text, order, account.createdAt.timeIntervalSince1970, account.updatedAt.timeIntervalSince1970,
                    sealed.nonce, sealed.ciphertext,
                ])
            } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_PRIMARYKEY {
                throw AccountIDTaken(account.id)
            }
            guard db.changesCount == 1 else { throw VaultError.modified(.writeIgnored) }
            order += 1
        }
    }

    /// Stores a new ciphertext for entry `record.id`, only if it is still at `record.version`;
    /// the row as written.
    @discardableResult
    static func reseal(_ record: EntryRecord, updatedAt: Double, sealed: (nonce: Data, ciphertext: Data), _ db: Database) throws
        -> EntryRecord
    {
        try VaultRows.execute(
            db, "UPDATE entry SET updated_at = ?, version = ?, nonce = ?, ciphertext = ? WHERE id = ? AND version = ?",
            [updatedAt, record.version + 1, sealed.nonce, sealed.ciphertext, record.id, record.version])
        return EntryRecord(
            id: record.id, sortOrder: record.sortOrder, createdAt: record.createdAt, updatedAt: updatedAt, version: record.version + 1,
            nonce: sealed.nonce, ciphertext: sealed.ciphertext)
    }

    /// Removes the entry `id`, which must be there.
    static func delete(_ id: String, _ db: Database) throws {
        try VaultRows.execute(db, "DELETE FROM entry WHERE id = ?", [id])
    }

    /// Removes the entry `id` if the vault has it.
    static func deleteIfPresent(_ id: String, _ db: Database) throws {
        try db.execute(sql: "DELETE FROM entry WHERE id = ?", arguments: [id])
    }

    /// Puts the entries in the order of `ids` (every entry's id); only the rows that move are
    /// written, each of which must change.
    static func order(_ ids: [String], _ db: Database) throws {
        let current = Dictionary(
            try Row.fetchAll(db, sql: "SELECT id, sort_order FROM entry").map { (row: Row) -> (String, Int) in (row[0], row[1]) },
            uniquingKeysWith: { first, _ in first })
        let update = try db.cachedStatement(sql: "UPDATE entry SET sort_order = ? WHERE id = ?")
        for (index, id) in ids.enumerated() where current[id] != index {
            try update.execute(arguments: [index, id])
            guard db.changesCount == 1 else { throw VaultError.modified(.writeIgnored) }
        }
    }
}
