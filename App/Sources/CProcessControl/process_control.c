#include "process_control.h"

#if defined(__linux__)
#include <sys/prctl.h>

int tokens_forbid_dumps(void) { return prctl(PR_SET_DUMPABLE, 0, 0, 0, 0); }

int tokens_is_dumpable(void) { return prctl(PR_GET_DUMPABLE, 0, 0, 0, 0); }
#else
int tokens_forbid_dumps(void) { return -1; }

int tokens_is_dumpable(void) { return -1; }
#endif
