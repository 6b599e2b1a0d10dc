import CommandLineKit
import Foundation

/// `--at UNIX_TIME`: compute codes for a fixed moment, for reproducible output.
enum TimeOption {
    static let argument = ArgumentSpec.option("at", value: "unix-time", help: "Compute codes at this Unix time (seconds).")

    /// The Unix time given with `--at`, if any.
    static func unixTime(_ arguments: ParsedArguments) throws(UsageError) -> Int64? {
        let unixTime = try arguments.integer("at", as: Int64.self)
        if let unixTime, unixTime < 0 { throw UsageError("--at must be a Unix time of 0 or later") }
        return unixTime
    }

    /// The moment to use: `--at`, or now.
    static func date(unixTime: Int64?, now: Date) -> Date {
        unixTime.map { Date(timeIntervalSince1970: TimeInterval($0)) } ?? now
    }
}
