import Foundation
import IntegrationTestSupport
import Testing

/// `make test`'s harness (Tests-Integration/Scripts/test-watchdog.sh): a stall fails with the
/// backtraces of the stuck processes and ends only their own process group; a run that executes
/// no test fails; otherwise the run's own status is kept.
@Suite("The test watchdog of make test")
struct TestWatchdogTests {
    static let script = RepositoryRoot.url.appendingPathComponent("Tests-Integration/Scripts/test-watchdog.sh").path

    @Test("a stalled run fails at its limit with backtraces, and its whole process group is ended")
    func stall() throws {
        let folder = try TemporaryHome()
        let pidFile = folder.url.appendingPathComponent("child.pid").path
        // A neighbour outside the group, whose command line looks the same: it must survive.
        let neighbour = try ChildProcess(
            executable: "/bin/sleep", arguments: ["301"], output: "/dev/null", error: "/dev/null")
        defer {
            neighbour.send(SIGKILL)
            neighbour.wait()
        }
        let result = try ProcessRunner.run(
            Self.script, ["2", "bash", "-c", "sleep 301 & echo $! > '\(pidFile)'; echo started; wait"], timeout: 180)
        #expect(result.status == 124, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("started"))
        #expect(result.stdout.contains("STALLED") && result.stdout.contains("-- pid"))
        #expect(result.stdout.contains("Thread 1") || result.stdout.contains("gdb is not installed"), "\(result.stdout)")
        let child = try #require(Int32(String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        // SIGKILL is delivered asynchronously: give the kernel time to end it, however loaded.
        let deadline = Date().addingTimeInterval(30)
        while Self.isAlive(child), Date() < deadline { usleep(10_000) }
        #expect(!Self.isAlive(child), "the stalled run's child still runs")
        #expect(neighbour.isRunning, "a process outside the run's group was killed")
    }

    @Test(
        "a run that executes no test fails; one that runs tests passes; a failure keeps its status",
        arguments: outputs)
    func countsTests(lines: [String], status: Int32) throws {
        let result = try ProcessRunner.run(Self.script, ["60", "printf", "%s\\n"] + lines, timeout: 120)
        #expect(result.status == status, "\(result.stdout)")
        let failing = try ProcessRunner.run(Self.script, ["60", "bash", "-c", "echo 'Executed 1 test'; exit 3"], timeout: 120)
        #expect(failing.status == 3)
    }

    /// Lines a test run printed, and the watchdog's status for them.
    static let outputs: [([String], Int32)] = [
        (["✔ Test run with 0 tests in 0 suites passed after 0.001 seconds."], 65),
        (["➜ Test \"a\" skipped: \"x\"", "✔ Test run with 1 test in 1 suite passed after 0.001 seconds."], 65),
        (["◇ Test case passing 1 argument \"✔ Test run with 3 tests\" started.", "Executed 0 tests"], 65),
        (["\t Executed 0 tests, with 0 failures (0 unexpected)"], 65),
        (["➜ Test \"a\" skipped: \"x\"", "✔ Test run with 3 tests in 1 suite passed after 0.001 seconds."], 0),
        (["\t Executed 2 tests, with 0 failures (0 unexpected)"], 0),
    ]

    /// Whether a process exists and is not a zombie waiting to be reaped.
    static func isAlive(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return false }
        return stat[stat.index(close, offsetBy: 2)] != "Z"
    }
}
