#if canImport(Glibc)
    import Glibc
#endif

/// Keeps an unlocked vault's keys and decoded secrets out of core dumps, and out of reach of
/// other processes of the same user that would attach a debugger or read `/proc/PID/mem`:
/// `prctl(PR_SET_DUMPABLE, 0)` from the moment a vault phase asks for a passphrase until the
/// process ends. (Root, or a process with CAP_SYS_PTRACE, can still read it; README says so.)
public enum ProcessHardening {
    // <sys/prctl.h>'s option numbers (linux/prctl.h), which the Glibc module does not import.
    private static let getDumpable: Int32 = 3
    private static let setDumpable: Int32 = 4

    /// Makes the process non-dumpable. Does nothing where prctl does not exist.
    public static func forbidDumpsAndTracing() {
        _ = prctl?(setDumpable, 0, 0, 0, 0)
    }

    /// Whether the process may be dumped or traced (true where this cannot be read).
    public static var isDumpable: Bool {
        (prctl?(getDumpable, 0, 0, 0, 0) ?? 1) != 0
    }

    /// glibc's prctl, which is variadic and so not imported into Swift: called through a
    /// pointer with its five integer arguments (how the C ABI passes them either way).
    private typealias Prctl = @convention(c) (Int32, UInt, UInt, UInt, UInt) -> Int32
    private static let prctl: Prctl? = {
        guard let program = dlopen(nil, RTLD_NOW), let symbol = dlsym(program, "prctl") else { return nil }
        return unsafeBitCast(symbol, to: Prctl.self)
    }()
}
