import CProcessControl

/// How the C library's allocator serves a one-shot command: blocks of up to 4 MB come from the
/// heap and stay there when freed, so the next such block reuses their pages. By default each
/// block over 128 KB is a mapping of its own, mapped, faulted page by page and unmapped: a
/// vault's search index at 10 000 accounts is three such blocks of 140 KB at every command.
package enum ProcessMemory {
    /// Sets it up; call it first thing. Does nothing where mallopt does not exist. Whether the
    /// allocator took it.
    @discardableResult
    public static func keepLargeBlocksOnHeap() -> Bool {
        tokens_keep_large_blocks_on_heap() == 1
    }
}
