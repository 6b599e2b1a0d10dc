#include "keyring.h"

#include <errno.h>

#if defined(__linux__)
#include <sys/syscall.h>
#include <unistd.h>

// From <linux/keyctl.h>, which not every sysroot ships.
enum {
    tokens_keyctl_revoke = 3,
    tokens_keyctl_setperm = 5,
    tokens_keyctl_search = 10,
    tokens_keyctl_read = 11,
    tokens_keyctl_set_timeout = 15,
    tokens_keyctl_invalidate = 21,
};

int32_t tokens_add_user_key(const char *description, const void *payload, size_t length, int32_t keyring) {
    return (int32_t)syscall(SYS_add_key, "user", description, payload, length, keyring);
}

int32_t tokens_search_user_key(int32_t keyring, const char *description) {
    return (int32_t)syscall(SYS_keyctl, tokens_keyctl_search, keyring, "user", description, 0);
}

long tokens_read_key(int32_t key, void *buffer, size_t length) {
    return syscall(SYS_keyctl, tokens_keyctl_read, key, buffer, length);
}

long tokens_set_key_permissions(int32_t key, uint32_t permissions) {
    return syscall(SYS_keyctl, tokens_keyctl_setperm, key, permissions);
}

long tokens_set_key_timeout(int32_t key, unsigned int seconds) {
    return syscall(SYS_keyctl, tokens_keyctl_set_timeout, key, seconds);
}

long tokens_remove_key(int32_t key) {
    long result = syscall(SYS_keyctl, tokens_keyctl_invalidate, key);
    if (result == -1 && errno == EOPNOTSUPP) result = syscall(SYS_keyctl, tokens_keyctl_revoke, key);
    return result;
}
#else
int32_t tokens_add_user_key(const char *description, const void *payload, size_t length, int32_t keyring) {
    errno = ENOSYS;
    return -1;
}

int32_t tokens_search_user_key(int32_t keyring, const char *description) {
    errno = ENOSYS;
    return -1;
}

long tokens_read_key(int32_t key, void *buffer, size_t length) {
    errno = ENOSYS;
    return -1;
}

long tokens_set_key_permissions(int32_t key, uint32_t permissions) {
    errno = ENOSYS;
    return -1;
}

long tokens_set_key_timeout(int32_t key, unsigned int seconds) {
    errno = ENOSYS;
    return -1;
}

long tokens_remove_key(int32_t key) {
    errno = ENOSYS;
    return -1;
}
#endif
