/// What `tokens-loadtest` was asked to measure. A flag it does not know, a flag without its
/// value, or a value out of range is one line on standard error and status 2, never a crash or
/// a load run in its place; `--help` prints `usage`.
public struct LoadTestOptions: Equatable, Sendable {
    /// The release `tokens-server` to measure.
    public var server = ""
    /// Entries in each account (1 to 10 000, the server's default quota).
    public var entries = LoadFixture.entriesPerAccount
    public var seconds = 10
    public var rounds = 3
    public var connections = 8
    public var soakSeconds = 300
    public var output = "bench/sync-results.json"
    public var workloads = SyncLoad.workloads

    public init() {}

    public static let usage = """
        usage: tokens-loadtest --server PATH [--seconds 10] [--rounds 3] [--connections 8] [--soak-seconds 300]
                               [--workloads push,pull,head] [--entries 20] [--output bench/sync-results.json]
          --server        the release tokens-server to measure (required)
          --seconds       each measured run (1 to 3600)
          --rounds        alternating rounds of the server and pgbench (1 to 3600)
          --connections   wrk's connections and pgbench's clients (1 to 64)
          --soak-seconds  the soak for the server's memory (0: none)
          --workloads     some of push, pull, head, comma-separated
          --entries       entries in each account (1 to 10000)
          --output        where the report goes
        """

    /// The flags it takes, each with a value.
    static let flags: Set = [
        "--server", "--output", "--workloads", "--entries", "--seconds", "--rounds", "--connections", "--soak-seconds",
    ]

    /// The options `arguments` (without the program's name) give; `nil` when they ask for help.
    public static func parse(_ arguments: [String]) throws(LoadUsageError) -> LoadTestOptions? {
        var options = LoadTestOptions()
        var rest = arguments[...]
        while let flag = rest.popFirst() {
            if flag == "--help" || flag == "-h" { return nil }
            guard flags.contains(flag) else { throw LoadUsageError(message: "unknown argument \(flag.debugDescription)") }
            guard let value = rest.popFirst(), !value.hasPrefix("--") else { throw LoadUsageError(message: "\(flag) needs a value") }
            switch flag {
            case "--server": options.server = value
            case "--output": options.output = value
            case "--workloads":
                options.workloads = value.split(separator: ",").map(String.init)
                guard !options.workloads.isEmpty, options.workloads.allSatisfy(SyncLoad.workloads.contains) else {
                    throw LoadUsageError(
                        message: "--workloads takes some of \(SyncLoad.workloads.joined(separator: ", ")), comma-separated")
                }
            case "--entries":
                guard let number = Int(value), (1...10_000).contains(number) else {
                    throw LoadUsageError(message: "--entries takes 1 to 10000, not \(value.debugDescription)")
                }
                options.entries = number
            default:
                guard let number = Int(value), (0...3600).contains(number) else {
                    throw LoadUsageError(message: "\(flag) takes 0 to 3600, not \(value.debugDescription)")
                }
                switch flag {
                case "--seconds": options.seconds = max(1, number)
                case "--rounds": options.rounds = max(1, number)
                case "--connections": options.connections = max(1, min(number, 64))
                default: options.soakSeconds = number
                }
            }
        }
        guard !options.server.isEmpty else { throw LoadUsageError(message: "--server PATH (the tokens-server to measure) is required") }
        return options
    }
}

/// A command line `tokens-loadtest` cannot run, said in one line.
public struct LoadUsageError: Error, Equatable {
    public let message: String
}
