// The kernel's view of the system clock's synchronisation, from adjtimex(2), whose `struct timex`
// Swift's Glibc module does not import. Read only: no mode bit is set, nothing is changed.
#ifndef TOKENS_TIMESYNC_H
#define TOKENS_TIMESYNC_H

/// 1 when a time-sync daemon (chrony, systemd-timesyncd, ntpd) keeps the clock synchronised,
/// 0 when the kernel marks it unsynchronised, -1 when it cannot be read (errno set; ENOSYS
/// elsewhere than Linux). `estimated_error_us` receives the kernel's estimated error, in
/// microseconds, when synchronised.
int tokens_clock_synchronized(long *estimated_error_us);

#endif
