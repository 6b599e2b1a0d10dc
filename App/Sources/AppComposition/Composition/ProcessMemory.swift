import CProcessControl
import DataLayer

/// How a one-shot command takes memory: blocks of up to 4 MB come from the C library's heap and
/// stay there when freed, so the next such block reuses their pages (by default each block over
/// 128 KB is a mapping of its own, mapped, faulted page by page and unmapped: a vault's search
/// index at 10 000 accounts was three such blocks of 140 KB at every command); and SQLite's page
/// cache takes memory as pages are read.
package enum ProcessMemory {
    /// Sets it up; call it first thing. Does nothing where mallopt does not exist. Whether the
    /// allocator took it.
    @discardableResult
    public static func keepLargeBlocksOnHeap() -> Bool {
        tokens_keep_large_blocks_on_heap() == 1
    }

    /// Has SQLite's page cache take memory as pages are read, not twenty pages' worth at a
    /// connection's first read (`SQLiteProcessSettings`). Call it first thing, before SQLite's
    /// first use. Whether SQLite took it.
    @discardableResult
    public static func takeSQLitePagesOnDemand() -> Bool {
        SQLiteProcessSettings.takePageCacheOnDemand()
    }
}
