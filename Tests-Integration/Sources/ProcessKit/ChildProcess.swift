import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A child process started with `posix_spawn`, as a shell would start it: an empty signal mask,
/// default signal actions, its standard streams from and to files, and no other descriptor of
/// ours. (Foundation's `Process` passes on the calling thread's signal mask, and a test runs on
/// a worker thread that blocks nearly every signal: a child started that way ignores SIGTERM and
/// SIGINT, and the tools it runs in turn, gdb among them, can hang.)
public final class ChildProcess: @unchecked Sendable {
    /// How a child ended.
    public enum Termination: Equatable, Sendable {
        case exited(Int32)
        case signalled(Int32)

        /// The exit status, or the signal's number (as Foundation's `terminationStatus` gives it).
        public var status: Int32 {
            switch self {
            case .exited(let status), .signalled(let status): status
            }
        }
    }

    public let pid: pid_t
    private let lock = NSLock()
    private var ended: Termination?

    /// Whether the child leads a process group of its own (then `send` signals the whole group).
    public let leadsGroup: Bool

    /// Starts `executable` (a path) with `arguments`, `environment` (ours when nil), standard
    /// input from `input` (/dev/null when nil), and standard output and error into files; in a
    /// process group of its own when `ownGroup`.
    public init(
        executable: String, arguments: [String], environment: [String: String]? = nil,
        input: String? = nil, output: String, error: String, ownGroup: Bool = false
    ) throws {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var every = sigset_t()
        sigfillset(&every)
        posix_spawnattr_setsigdefault(&attributes, &every)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | (ownGroup ? POSIX_SPAWN_SETPGROUP : 0)))
        posix_spawnattr_setpgroup(&attributes, 0)

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, input ?? "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, error, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        if let closeFrom = Self.closeFrom { _ = closeFrom(&actions, 3) }

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let pairs = (environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" }
        let envp = pairs.map { strdup($0) } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var child: pid_t = 0
        let result = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
        guard result == 0 else { throw ChildProcessError(executable: executable, code: result) }
        pid = child
        leadsGroup = ownGroup
    }

    /// Whether the child still runs (reaping it if it has ended).
    public var isRunning: Bool { poll() == nil }

    /// How it ended, or nil while it runs. Never blocks.
    public func poll() -> Termination? {
        lock.withLock {
            if let ended { return ended }
            var status: Int32 = 0
            guard waitpid(pid, &status, WNOHANG) == pid else { return nil }
            ended = Self.termination(status)
            return ended
        }
    }

    /// Waits until the child ends.
    @discardableResult
    public func wait() -> Termination {
        while true {
            if let ended = poll() { return ended }
            usleep(1_000)
        }
    }

    /// Sends `signal` to the child, or to its group when it leads one (once it has ended and been
    /// reaped, nothing is sent).
    public func send(_ signal: Int32) {
        lock.withLock {
            if ended == nil { _ = kill(leadsGroup ? -pid : pid, signal) }
        }
    }

    /// glibc's posix_spawn_file_actions_addclosefrom_np (2.34 and later), which the Glibc module
    /// does not import: closes every descriptor from a number on, in the child.
    private typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    private static let closeFrom: CloseFrom? = {
        guard let program = dlopen(nil, RTLD_NOW),
            let symbol = dlsym(program, "posix_spawn_file_actions_addclosefrom_np")
        else { return nil }
        return unsafeBitCast(symbol, to: CloseFrom.self)
    }()

    /// The exit status or the signal, decoded from waitpid's status word.
    static func termination(_ status: Int32) -> Termination {
        let signal = status & 0x7F
        return signal == 0 ? .exited((status >> 8) & 0xFF) : .signalled(signal)
    }
}

/// posix_spawn refused to start a program.
public struct ChildProcessError: Error, CustomStringConvertible {
    public let executable: String
    public let code: Int32
    public var description: String { "cannot start \(executable): \(String(cString: strerror(code)))" }
}
