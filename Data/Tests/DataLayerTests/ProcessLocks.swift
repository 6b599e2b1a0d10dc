import Foundation

/// The POSIX locks this process holds, from Linux's /proc/locks: SQLite's locks on a vault are
/// what keep another process from checkpointing and deleting a WAL this one still writes to.
enum ProcessLocks {
    /// Whether this process holds a POSIX lock on the file at `path`; nil where /proc/locks
    /// cannot tell (not Linux).
    static func held(onFileAt path: String) -> Bool? {
        var info = stat()
        guard stat(path, &info) == 0, let text = ProcFile.text("/proc/locks") else { return nil }
        let pid = String(getpid())
        // "1: POSIX  ADVISORY  READ 4242 fd:01:131090 1073741826 1073742335"; waiting locks have "->".
        return text.split(separator: "\n").contains { line in
            let fields = line.split(separator: " ")
            guard fields.count >= 6, fields[1] == "POSIX", !fields.contains("->") else { return false }
            return fields[4] == pid && fields[5].split(separator: ":").last == Substring(String(info.st_ino))
        }
    }
}
