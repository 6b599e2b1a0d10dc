#include "process_control.h"

#if defined(__linux__)
#include <malloc.h>
#include <sys/prctl.h>

int tokens_forbid_dumps(void) { return prctl(PR_SET_DUMPABLE, 0, 0, 0, 0); }

int tokens_is_dumpable(void) { return prctl(PR_GET_DUMPABLE, 0, 0, 0, 0); }

int tokens_keep_large_blocks_on_heap(void) {
    return mallopt(M_MMAP_THRESHOLD, 4 << 20) && mallopt(M_TRIM_THRESHOLD, 8 << 20);
}
#else
int tokens_forbid_dumps(void) { return -1; }

int tokens_is_dumpable(void) { return -1; }

int tokens_keep_large_blocks_on_heap(void) { return 0; }
#endif
