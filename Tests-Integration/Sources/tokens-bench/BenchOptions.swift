import Foundation

/// What `tokens-bench` was asked to run: every row, or one group of rows (`--only`), with the
/// binaries it measures and where the report goes. A flag it does not know, a group that needs
/// `--tokens` without it, or a flag without its value is one line on standard error and status 2,
/// never a whole bench run in its place.
struct BenchOptions: Equatable {
    /// The groups `--only` names.
    enum Group: String, CaseIterable {
        case code, screen, pictures, backup, sync
    }

    var tokens: String?
    var server: String?
    var output = "bench/results.json"
    var only: Group?

    static let usage = """
        usage: tokens-bench [--tokens PATH] [--server PATH] [--output FILE] [--only code|screen|pictures|backup|sync]
          --tokens   the installed tokens binary (the rows that run it are left out without it)
          --server   the release tokens-server (the sync rows; with --tokens)
          --output   where the report goes (default bench/results.json; not written with --only)
          --only     one group of rows: code, screen, pictures, backup (need --tokens), sync (needs both)
        """

    /// The options `arguments` (without the program's name) give; `nil` when they ask for help.
    static func parse(_ arguments: [String]) throws(BenchUsageError) -> BenchOptions? {
        var options = BenchOptions()
        var rest = arguments[...]
        while let flag = rest.popFirst() {
            if flag == "--help" || flag == "-h" { return nil }
            guard ["--tokens", "--server", "--output", "--only"].contains(flag) else {
                throw BenchUsageError(message: "unknown argument \(flag.debugDescription)")
            }
            guard let value = rest.popFirst(), !value.hasPrefix("--") else { throw BenchUsageError(message: "\(flag) needs a value") }
            switch flag {
            case "--tokens": options.tokens = value
            case "--server": options.server = value
            case "--output": options.output = value
            default:
                guard let group = Group(rawValue: value) else {
                    throw BenchUsageError(
                        message:
                            "--only takes one of \(Group.allCases.map(\.rawValue).joined(separator: ", ")), not \(value.debugDescription)")
                }
                options.only = group
            }
        }
        if options.only != nil, options.tokens == nil { throw BenchUsageError(message: "--only \(options.only!.rawValue) needs --tokens") }
        if options.only == .sync, options.server == nil { throw BenchUsageError(message: "--only sync needs --server") }
        return options
    }
}

/// A command line `tokens-bench` cannot run, said in one line.
struct BenchUsageError: Error {
    let message: String
}
