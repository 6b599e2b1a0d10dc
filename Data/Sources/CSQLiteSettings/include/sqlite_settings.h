// SQLite's process-wide settings: sqlite3_config(3) is variadic, so Swift cannot call it.
#ifndef TOKENS_SQLITE_SETTINGS_H
#define TOKENS_SQLITE_SETTINGS_H

/// Has each SQLite connection allocate its page cache's slots one at a time, as pages are read,
/// instead of 20 at its first read (SQLITE_CONFIG_PAGECACHE with no buffer and no initial
/// count), each of whose pages the allocation writes. Takes effect only before SQLite's first
/// use in the process; returns SQLite's result code (SQLITE_MISUSE after it).
int tokens_sqlite_page_cache_on_demand(void);

#endif
