// Process controls that Swift cannot call itself: prctl(2) is variadic, and a variadic C function
// is not imported into Swift. Looking it up with dlsym instead fails in the fully static release
// binary (it has no dynamic symbol table), so it is called here, from C.
#ifndef TOKENS_PROCESS_CONTROL_H
#define TOKENS_PROCESS_CONTROL_H

/// Makes the process non-dumpable (no core dump; no ptrace or /proc/PID/mem by the same user).
/// Returns 0 on success, -1 where that cannot be done.
int tokens_forbid_dumps(void);

/// 1 when the process may be dumped or traced, 0 when not, -1 where this cannot be read.
int tokens_is_dumpable(void);

#endif
