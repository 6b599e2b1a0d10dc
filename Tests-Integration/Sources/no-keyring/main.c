// no-keyring COMMAND [ARGUMENT...]: runs COMMAND where the kernel keyring's system calls
// (add_key, request_key, keyctl) fail with EPERM, as Docker's default seccomp profile makes
// them fail. A fault injector for the tests of `tokens unlock`'s fallback; in no product.
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#if defined(__linux__)
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

#if defined(__x86_64__)
#define NATIVE_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define NATIVE_ARCH AUDIT_ARCH_AARCH64
#endif

static int block_keyring(void) {
    struct sock_filter filter[] = {
        // Calls of another architecture's numbering are refused outright.
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, NATIVE_ARCH, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_add_key, 3, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_request_key, 2, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_keyctl, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA)),
    };
    struct sock_fprog program = {.len = sizeof(filter) / sizeof(filter[0]), .filter = filter};
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return -1;
    return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program, 0, 0);
}
#else
static int block_keyring(void) {
    errno = ENOSYS;
    return -1;
}
#endif

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: no-keyring COMMAND [ARGUMENT...]\n");
        return 64;
    }
    if (block_keyring() != 0) {
        fprintf(stderr, "no-keyring: cannot install the filter: %s\n", strerror(errno));
        return 70;
    }
    execvp(argv[1], argv + 1);
    fprintf(stderr, "no-keyring: cannot run %s: %s\n", argv[1], strerror(errno));
    return 127;
}
