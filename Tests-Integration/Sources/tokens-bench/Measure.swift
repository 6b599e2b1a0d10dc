import Foundation
import ProcessKit

/// Timing helpers: wall-clock samples and their percentiles.
enum Measure {
    /// Seconds `body` takes.
    static func seconds(_ body: () throws -> Void) rethrows -> Double {
        let start = ContinuousClock.now
        try body()
        return seconds(since: start)
    }

    /// Seconds an async `body` takes.
    static func asyncSeconds(_ body: () async throws -> Void) async rethrows -> Double {
        let start = ContinuousClock.now
        try await body()
        return seconds(since: start)
    }

    /// Seconds from `start` to now.
    static func seconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    static func percentile(_ samples: [Double], _ p: Double) -> Double {
        guard !samples.isEmpty else { return .nan }
        let sorted = samples.sorted()
        return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
    }

    /// The median seconds of `runs` runs of a command (the process as a whole): through
    /// hyperfine when it is installed (no shell, 3 warm-up runs), else timed here around
    /// Foundation's Process, which adds its own few milliseconds to both sides of a ratio.
    /// The median of `values`; nil when there are none.
    static func median(_ values: [Double]) -> Double? {
        values.isEmpty ? nil : values.sorted()[values.count / 2]
    }

    /// Runs `first` and `second` in turn, `rounds` times, so that a change in the machine's
    /// speed during the run falls on both sides; the median of each side's figures (nil where a
    /// side gave none).
    static func inTurn(rounds: Int, _ first: () -> Double?, _ second: () -> Double?) -> (Double?, Double?) {
        var firsts: [Double] = []
        var seconds: [Double] = []
        for _ in 0..<rounds {
            if let figure = first() { firsts.append(figure) }
            if let figure = second() { seconds.append(figure) }
        }
        return (median(firsts), median(seconds))
    }

    static func commandMedian(_ path: String, _ arguments: [String], environment: [String: String]? = nil, runs: Int = 21) -> Double? {
        if let hyperfine = ProcessRunner.which("hyperfine") {
            return hyperfineMedian(hyperfine, command: [path] + arguments, environment: environment, runs: runs)
        }
        return processMedian(path, arguments, environment: environment, runs: runs)
    }

    static func hyperfineMedian(_ hyperfine: String, command: [String], environment: [String: String]?, runs: Int) -> Double? {
        let export = FileManager.default.temporaryDirectory.appendingPathComponent("hyperfine-\(getpid()).json")
        defer { try? FileManager.default.removeItem(at: export) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: hyperfine)
        process.arguments = [
            "-N", "--warmup", "3", "--runs", String(runs), "--style", "none", "--export-json", export.path,
            command.joined(separator: " "),
        ]
        if let environment { process.environment = environment }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        process.waitUntilExit()
        struct Export: Decodable {
            struct Run: Decodable { let median: Double }
            let results: [Run]
        }
        guard process.terminationStatus == 0, let data = try? Data(contentsOf: export),
            let report = try? JSONDecoder().decode(Export.self, from: data)
        else { return nil }
        return report.results.first?.median
    }

    static func processMedian(_ path: String, _ arguments: [String], environment: [String: String]?, runs: Int) -> Double? {
        var samples: [Double] = []
        for _ in 0..<runs {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: path)
            process.arguments = arguments
            if let environment { process.environment = environment }
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            let elapsed = seconds {
                try? process.run()
                process.waitUntilExit()
            }
            guard process.terminationStatus == 0 else { return nil }
            samples.append(elapsed)
        }
        return percentile(samples, 0.5)
    }
}

/// One benchmark's figures.
struct Result: Encodable {
    let name: String
    let value: Double
    let unit: String
    let comparedTo: String?
    let reference: Double?
    let goal: String
    let met: Bool?
}
