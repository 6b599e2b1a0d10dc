import Foundation
import ProcessKit

#if canImport(Glibc)
    import Glibc
#endif

/// `make bench`, part 13: the interactive screen's first frame on a REAL vault of 10 000
/// accounts, while `tokens unlock` keeps its key (no KDF): from the process's start on a pseudo
/// terminal to the first frame that lists the accounts, against the same on a vault of 30.
extension Bench {
    static func firstFrame(tokens: String) throws -> [Result] {
        var figures: [Int: Double] = [:]
        for count in [30, 10_000] {
            let home = try realVault(tokens: tokens, accounts: count)
            let environment = home.environment
            let unlocked = try ProcessRunner.run(tokens, ["unlock", "--for", "10m", "--phase", "real"], environment: environment)
            defer { _ = try? ProcessRunner.run(tokens, ["lock", "--phase", "real"], environment: environment) }
            guard unlocked.status == 0 else { continue }
            var quiet = environment
            quiet["TOKENS_PASSPHRASE"] = nil
            // Three to warm up, then the median of 21.
            let samples = (0..<24).compactMap { _ in
                PseudoTerminalRun.secondsUntil("Bench", tokens, ["--phase", "real"], environment: quiet)
            }
            if samples.count == 24 { figures[count] = Measure.median(Array(samples.dropFirst(3))) }
        }
        let ours = figures[10_000]
        return [
            Result(
                name: "the screen's first frame (REAL, unlocked, 10 000 accounts), from the process's start, median of 21",
                value: ours ?? .nan, unit: "s", comparedTo: "the same with 30 accounts", reference: figures[30], goal: "≤ 50 ms",
                met: ours.map { $0 <= 0.050 })
        ]
    }
}

/// A program run on a new pseudo terminal (its controlling terminal, 80 × 24), timed until its
/// output first holds a text; then ended with SIGTERM (the screen restores the terminal).
enum PseudoTerminalRun {
    /// glibc's POSIX_SPAWN_SETSID (since 2.26), which its Swift module map leaves out.
    static let spawnSetSID: Int16 = 0x80
    /// TIOCSPTLCK and TIOCGPTN (Linux's generic ioctl numbers, x86-64 and arm64 alike).
    static let unlockTerminal: UInt = 0x4004_5431
    static let terminalNumber: UInt = 0x8004_5430

    static func secondsUntil(
        _ marker: String, _ program: String, _ arguments: [String], environment: [String: String], timeout: Double = 10
    ) -> Double? {
        // posix_openpt, unlockpt and ptsname by hand: Glibc's module map leaves them out.
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard master >= 0 else { return nil }
        defer { close(master) }
        var unlock: Int32 = 0
        var number: UInt32 = 0
        guard ioctl(master, Self.unlockTerminal, &unlock) == 0, ioctl(master, Self.terminalNumber, &number) == 0 else { return nil }
        var size = winsize(ws_row: 24, ws_col: 80, ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(master, UInt(TIOCSWINSZ), &size)
        let slave = "/dev/pts/\(number)"
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawnattr_init(&attributes)
        defer {
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
        }
        // A new session: opening the terminal then makes it the controlling one.
        posix_spawnattr_setflags(&attributes, Self.spawnSetSID)
        posix_spawn_file_actions_addopen(&actions, 0, slave, O_RDWR, 0)
        posix_spawn_file_actions_adddup2(&actions, 0, 1)
        posix_spawn_file_actions_adddup2(&actions, 0, 2)
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var pid: pid_t = 0
        let start = ContinuousClock.now
        guard posix_spawn(&pid, program, &actions, &attributes, argv, envp) == 0 else { return nil }
        defer { end(pid) }
        let wanted = Array(marker.utf8)
        var seen: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            guard Measure.seconds(since: start) < timeout else { return nil }
            var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 100) >= 0 else { return nil }
            guard descriptor.revents & Int16(POLLIN) != 0 else { continue }
            let count = read(master, &buffer, buffer.count)
            guard count > 0 else { return nil }
            seen += buffer[0..<count]
            if seen.firstRange(of: wanted) != nil { return Measure.seconds(since: start) }
        }
    }

    /// Ends the program: SIGTERM, then SIGKILL if it has not ended within 5 s (a program that
    /// does not honour SIGTERM must not hang the bench), and reaps it either way.
    static func end(_ pid: pid_t) {
        kill(pid, SIGTERM)
        var status: Int32 = 0
        let asked = ContinuousClock.now
        while waitpid(pid, &status, WNOHANG) == 0 {
            guard Measure.seconds(since: asked) < 5 else {
                kill(pid, SIGKILL)
                waitpid(pid, &status, 0)
                return
            }
            usleep(10_000)
        }
    }
}
