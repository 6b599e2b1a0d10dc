import CProcessControl

/// Keeps an unlocked vault's keys and decoded secrets out of core dumps, and out of reach of
/// other processes of the same user that would attach a debugger or read `/proc/PID/mem`:
/// `prctl(PR_SET_DUMPABLE, 0)` from the moment a vault phase asks for a passphrase until the
/// process ends. (Root, or a process with CAP_SYS_PTRACE, can still read it; README says so.)
package enum ProcessHardening {
    /// Makes the process non-dumpable. Does nothing where prctl does not exist.
    public static func forbidDumpsAndTracing() {
        _ = tokens_forbid_dumps()
    }

    /// Whether the process may be dumped or traced (true where this cannot be read).
    public static var isDumpable: Bool { tokens_is_dumpable() != 0 }
}
