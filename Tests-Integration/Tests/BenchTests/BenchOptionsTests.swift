import Testing

@testable import tokens_bench

/// `tokens-bench`'s command line: what it runs, and the mistakes it refuses instead of running
/// the whole bench in their place.
@Suite("tokens-bench's options")
struct BenchOptionsTests {
    @Test("no arguments: every row that needs no binary; --tokens and --server add theirs; --output moves the report")
    func everyRow() throws {
        #expect(try BenchOptions.parse([]) == BenchOptions())
        let options = try #require(try BenchOptions.parse(["--tokens", "/bin/tokens", "--server", "/bin/s", "--output", "r.json"]))
        #expect(options == BenchOptions(tokens: "/bin/tokens", server: "/bin/s", output: "r.json", only: nil))
    }

    @Test("--only names one group of rows")
    func onlyOneGroup() throws {
        #expect(try BenchOptions.parse(["--only", "code", "--tokens", "t"])?.only == .code)
        #expect(try BenchOptions.parse(["--tokens", "t", "--server", "s", "--only", "sync"])?.only == .sync)
    }

    @Test("--help and -h ask for the usage, and run nothing")
    func help() throws {
        #expect(try BenchOptions.parse(["--help"]) == nil)
        #expect(try BenchOptions.parse(["--tokens", "t", "-h"]) == nil)
    }

    @Test(
        "an unknown flag, a group it does not have, a group without the binary it measures, a flag without its value: one line each",
        arguments: [
            (["--tokns", "t"], "unknown argument \"--tokns\""),
            (["--only", "speed", "--tokens", "t"], "--only takes one of code, screen, pictures, backup, sync, not \"speed\""),
            (["--only", "code"], "--only code needs --tokens"),
            (["--only", "sync", "--tokens", "t"], "--only sync needs --server"),
            (["--tokens"], "--tokens needs a value"),
            (["--output", "--only", "code"], "--output needs a value"),
        ])
    func refused(arguments: [String], message: String) {
        let error = #expect(throws: BenchUsageError.self) { try BenchOptions.parse(arguments) }
        #expect(error?.message == message)
    }
}
