// The Linux kernel keyring's system calls, which Swift cannot call itself: syscall(2) is
// variadic, and a variadic C function is not imported into Swift (nor is there a libc wrapper
// without libkeyutils, which the fully static release binary does not link). Every function
// returns what the system call does: -1 with errno set on failure. Elsewhere than Linux each
// fails with ENOSYS.
#ifndef TOKENS_KEYRING_H
#define TOKENS_KEYRING_H

#include <stddef.h>
#include <stdint.h>

/// The calling user's keyring (KEY_SPEC_USER_KEYRING).
#define TOKENS_USER_KEYRING (-4)

/// add_key(2) with the "user" key type: adds the key, or replaces the payload of the key of
/// that description in `keyring`. Returns the key's serial.
int32_t tokens_add_user_key(const char *description, const void *payload, size_t length, int32_t keyring);

/// KEYCTL_SEARCH for a "user" key of that description in `keyring` (and the keyrings it links).
int32_t tokens_search_user_key(int32_t keyring, const char *description);

/// KEYCTL_READ: copies up to `length` bytes of the payload; returns the payload's full size.
long tokens_read_key(int32_t key, void *buffer, size_t length);

/// KEYCTL_SETPERM.
long tokens_set_key_permissions(int32_t key, uint32_t permissions);

/// KEYCTL_SET_TIMEOUT: the key expires that many seconds from now (0: never).
long tokens_set_key_timeout(int32_t key, unsigned int seconds);

/// KEYCTL_INVALIDATE, else KEYCTL_REVOKE on kernels without it: the key is gone at once and
/// its payload freed.
long tokens_remove_key(int32_t key);

#endif
