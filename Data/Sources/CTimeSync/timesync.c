#include "timesync.h"

#include <errno.h>

#ifdef __linux__
#include <sys/timex.h>

int tokens_clock_synchronized(long *estimated_error_us) {
    struct timex state = {0};
    int result = adjtimex(&state);
    if (result == -1) return -1;
    if (result == TIME_ERROR || (state.status & STA_UNSYNC)) return 0;
    if (estimated_error_us) *estimated_error_us = state.esterror;
    return 1;
}
#else
int tokens_clock_synchronized(long *estimated_error_us) {
    (void)estimated_error_us;
    errno = ENOSYS;
    return -1;
}
#endif
