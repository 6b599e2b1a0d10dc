import LoadKit
import Testing

/// `tokens-loadtest`'s command line: what it measures, and the mistakes it refuses in one line
/// instead of trapping with a backtrace.
@Suite("tokens-loadtest's options")
struct LoadTestOptionsTests {
    @Test("--server alone: the defaults make loadtest documents; each flag sets its value")
    func values() throws {
        var expected = LoadTestOptions()
        expected.server = "/bin/s"
        #expect(try LoadTestOptions.parse(["--server", "/bin/s"]) == expected)
        let options = try #require(
            try LoadTestOptions.parse([
                "--server", "s", "--seconds", "0", "--rounds", "2", "--connections", "99", "--soak-seconds", "0",
                "--workloads", "pull,head", "--entries", "10000", "--output", "r.json",
            ]))
        #expect(options.seconds == 1)
        #expect(options.rounds == 2)
        #expect(options.connections == 64)
        #expect(options.soakSeconds == 0)
        #expect(options.workloads == ["pull", "head"])
        #expect(options.entries == 10_000)
        #expect(options.output == "r.json")
    }

    @Test("--help and -h ask for the usage, and run nothing")
    func help() throws {
        #expect(try LoadTestOptions.parse(["--help"]) == nil)
        #expect(try LoadTestOptions.parse(["--server", "s", "-h"]) == nil)
    }

    @Test(
        "an unknown flag, a flag without its value, a value out of range, no server: one line each",
        arguments: [
            (["--bogus", "x"], "unknown argument \"--bogus\""),
            (["--server"], "--server needs a value"),
            (["--seconds", "--server", "s"], "--seconds needs a value"),
            (["--server", "s", "--rounds", "-1"], "--rounds takes 0 to 3600, not \"-1\""),
            (["--server", "s", "--entries", "0"], "--entries takes 1 to 10000, not \"0\""),
            (["--server", "s", "--workloads", "push,soak"], "--workloads takes some of push, pull, head, comma-separated"),
            ([], "--server PATH (the tokens-server to measure) is required"),
        ])
    func refused(arguments: [String], message: String) {
        let error = #expect(throws: LoadUsageError.self) { try LoadTestOptions.parse(arguments) }
        #expect(error?.message == message)
    }
}
