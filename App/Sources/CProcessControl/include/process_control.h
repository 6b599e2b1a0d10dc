// Process controls that Swift cannot call itself: prctl(2) is variadic, and a variadic C function
// is not imported into Swift (looking it up with dlsym instead fails in the fully static release
// binary, which has no dynamic symbol table); mallopt(3) is declared in malloc.h, which Swift's
// Glibc module does not include. So they are called here, from C.
#ifndef TOKENS_PROCESS_CONTROL_H
#define TOKENS_PROCESS_CONTROL_H

/// Makes the process non-dumpable (no core dump; no ptrace or /proc/PID/mem by the same user).
/// Returns 0 on success, -1 where that cannot be done.
int tokens_forbid_dumps(void);

/// 1 when the process may be dumped or traced, 0 when not, -1 where this cannot be read.
int tokens_is_dumpable(void);

/// Has glibc's malloc serve blocks of up to 4 MB from the heap and keep up to 8 MB of freed
/// heap (mallopt(3): M_MMAP_THRESHOLD, M_TRIM_THRESHOLD; malloc.h is not in Swift's Glibc
/// module). Returns 1 on success, 0 where that cannot be done.
int tokens_keep_large_blocks_on_heap(void);

#endif
