import ArgumentParser
import Foundation

/// `--at UNIX_TIME`: compute codes for a fixed moment, for reproducible output.
struct TimeOption: ParsableArguments {
    @Option(name: .customLong("at"), help: ArgumentHelp("Compute codes at this Unix time (seconds).", valueName: "unix-time"))
    var unixTime: Int64?

    func validate() throws {
        if let unixTime, unixTime < 0 { throw ValidationError("--at must be a Unix time of 0 or later") }
    }

    /// The moment to use: `--at`, or now.
    func date(now: Date) -> Date { Self.date(unixTime: unixTime, now: now) }

    static func date(unixTime: Int64?, now: Date) -> Date {
        unixTime.map { Date(timeIntervalSince1970: TimeInterval($0)) } ?? now
    }
}
