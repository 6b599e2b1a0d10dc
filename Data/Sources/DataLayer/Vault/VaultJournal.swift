import GRDB
import GRDBSQLite

/// The vault's journal: SQLite's rollback journal, removed at each commit ("delete" mode). A
/// command that only reads opens the one file and takes a shared lock while it reads; in WAL
/// mode, every process created, sized and removed a -wal and a -shm file to read (a tenth of the
/// start of `tokens code`). Vaults made by earlier builds are in WAL mode: they leave it at a
/// write that finds no other process holding the file open (`leaveWAL`), and read and write
/// alike until then.
enum VaultJournal {
    /// The mode a vault is created in and left in.
    static let mode = "delete"

    /// Whether `db`'s file is in WAL mode. Outside a transaction.
    static func isWAL(_ db: Database) throws -> Bool {
        try String.fetchOne(db, sql: "PRAGMA journal_mode") == "wal"
    }

    /// Switches `database`'s file, in WAL mode, to `mode` when no other connection has it open
    /// (SQLite checkpoints the WAL into the file and removes it); without waiting for one that
    /// does: the file then stays in WAL mode, and the next write tries again. True if the file
    /// is in `mode` now.
    @discardableResult
    static func leaveWAL(_ database: DatabaseQueue) -> Bool {
        database.writeWithoutTransaction { db -> Bool in
            let connection = db.sqliteConnection
            sqlite3_busy_timeout(connection, 0)
            defer { sqlite3_busy_timeout(connection, Int32(VaultDatabase.busyTimeout * 1000)) }
            return (try? String.fetchOne(db, sql: "PRAGMA journal_mode = \(mode)")) == mode
        }
    }
}
