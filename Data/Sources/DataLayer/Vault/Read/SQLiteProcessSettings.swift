import CSQLiteSettings
import GRDBSQLite

/// SQLite's process-wide settings for a one-shot command, set before SQLite's first use.
public enum SQLiteProcessSettings {
    /// Has every connection take its page cache's memory a page at a time, as it reads, instead
    /// of twenty slots (about 80 KB) at its first read, every page of which that allocation
    /// writes: a command that reads a few pages through the file's mapping (see
    /// `SQLiteReadConnection.readThroughMapping`) then faults in a few pages of heap, not twenty.
    /// Call it first thing, before any thread uses SQLite (sqlite3_config(3) is not thread-safe
    /// and has no effect once SQLite has started). Whether SQLite took it.
    @discardableResult
    public static func takePageCacheOnDemand() -> Bool {
        tokens_sqlite_page_cache_on_demand() == SQLITE_OK
    }
}
