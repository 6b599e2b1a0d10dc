import Foundation
import ProcessKit

#if canImport(Glibc)
    import Glibc
#endif

/// `make bench`, part 13: sync as a user runs it, whole commands on REAL vaults against the
/// release `tokens-server` (DEV: in memory, so the figures are the client's), at 1 000 and
/// 10 000 accounts, each beside the KDF and the local import of the same accounts measured in
/// the same run. The goals: an idle sync and one edit pushed or pulled within the KDF + 50 ms;
/// at 10 000, a join within 1.5 s and the first push within 2 s.
extension Bench {
    static func sync(tokens: String, server: String) throws -> [Result] {
        let running = try BenchServer(server)
        defer { running.stop() }
        let kdf = try kdfAlone(tokens: tokens)
        var results = [
            Result(
                name: "tokens code (REAL, 1 account): the KDF and a process, median of 21", value: kdf, unit: "s", comparedTo: nil,
                reference: nil, goal: "reference of the sync rows", met: nil)
        ]
        for count in [1_000, 10_000] { results += try syncRows(count: count, tokens: tokens, server: running.url, kdf: kdf) }
        return results
    }

    /// A one-account REAL vault's `tokens code`: what every command with the passphrase pays.
    static func kdfAlone(tokens: String) throws -> Double {
        let home = BenchHome()
        _ = try ProcessRunner.run(tokens, ["init", "--phase", "real"], environment: home.environment)
        let file = try home.file("one.txt", Data("otpauth://totp/Bench:me?secret=\(secret)\n".utf8))
        _ = try ProcessRunner.run(tokens, ["import", file, "--phase", "real"], environment: home.environment)
        return Measure.commandMedian(tokens, ["code", "bench", "--phase", "real"], environment: home.environment) ?? .nan
    }

    static func syncRows(count: Int, tokens: String, server: String, kdf: Double) throws -> [Result] {
        let laptop = BenchHome()
        let desktop = BenchHome()
        let label = count >= 1_000 ? "\(count / 1_000) \(String(format: "%03d", count % 1_000))" : String(count)
        let uris = (0..<count).map { "otpauth://totp/Issuer\($0):user\($0)@example.com?secret=\(secret)" }.joined(separator: "\n")
        let file = try laptop.file("accounts.txt", Data(uris.utf8))
        /// The command's seconds, and its peak resident bytes.
        func measured(_ home: borrowing BenchHome, _ arguments: [String], input: String? = nil) throws -> (Double, Int?) {
            var result: ProcessResult?
            let seconds = try Measure.seconds {
                result = try ProcessRunner.run(
                    tokens, arguments + ["--phase", "real"], environment: home.environment, input: input, measuringPeakMemory: true)
            }
            guard let result, result.status == 0 else {
                throw BenchFailure(what: "tokens \(arguments.joined(separator: " ")): \(result?.stderr ?? "")")
            }
            return (seconds, result.peakResidentBytes)
        }
        func timed(_ home: borrowing BenchHome, _ arguments: [String], input: String? = nil) throws -> Double {
            try measured(home, arguments, input: input).0
        }
        _ = try timed(laptop, ["init"])
        let imported = try timed(laptop, ["import", file, "--duplicates", "keep", "--quiet"])
        let firstPush = try timed(laptop, ["sync", "init", "--server", server])
        let code = try ProcessRunner.run(tokens, ["sync", "code", "--phase", "real"], environment: laptop.environment).stdout
        _ = try timed(desktop, ["init"])
        let (join, joinPeak) = try measured(desktop, ["sync", "join", "--server", server], input: code)
        // The reference: the same accounts listed from the joined vault (all of them decrypted).
        let (_, listPeak) = try measured(desktop, ["list"])
        let idle = Measure.commandMedian(tokens, ["sync", "--phase", "real"], environment: laptop.environment, runs: 11) ?? .nan
        // One edit on the laptop, pushed; then pulled by the desktop: five rounds, the medians.
        var (pushed, pulled): ([Double], [Double]) = ([], [])
        for round in 0..<5 {
            _ = try timed(laptop, ["edit", "user\(round * 7 + 1)@example.com", "--note", "round \(round)"])
            pushed.append(try timed(laptop, ["sync"]))
            pulled.append(try timed(desktop, ["sync"]))
        }
        let budget = kdf + 0.05
        func row(_ name: String, _ value: Double, goal: String?, met: Bool?) -> Result {
            Result(
                name: "\(name) (\(label) accounts), whole command", value: value, unit: "s",
                comparedTo: "tokens import of the same accounts", reference: imported, goal: goal ?? "reported", met: met)
        }
        let large = count >= 10_000
        return [
            row("tokens sync init: first push", firstPush, goal: large ? "≤ 2 s" : nil, met: large ? firstPush <= 2 : nil),
            row("tokens sync join: pull all", join, goal: large ? "≤ 1.5 s" : nil, met: large ? join <= 1.5 : nil),
            Result(
                name: "tokens sync join: pull all (\(label) accounts), peak resident", value: joinPeak.map { Double($0) / 1e6 } ?? .nan,
                unit: "MB", comparedTo: "tokens list of the joined vault", reference: listPeak.map { Double($0) / 1e6 },
                goal: "≤ 2× tokens list", met: joinPeak.flatMap { join in listPeak.map { join <= 2 * $0 } }),
            row("tokens sync, nothing to do, median of 11", idle, goal: "≤ KDF + 50 ms", met: idle <= budget),
            row(
                "tokens sync, one edit pushed, median of 5", Measure.median(pushed) ?? .nan, goal: "≤ KDF + 50 ms",
                met: (Measure.median(pushed) ?? .infinity) <= budget),
            row(
                "tokens sync, one edit pulled, median of 5", Measure.median(pulled) ?? .nan, goal: "≤ KDF + 50 ms",
                met: (Measure.median(pulled) ?? .infinity) <= budget),
        ]
    }

    /// A step of the bench that failed: it stops the run with what the command said.
    struct BenchFailure: Error, CustomStringConvertible {
        let what: String
        var description: String { what }
    }

    /// `tokens-server` in DEV on a free loopback port, in a process group of its own.
    final class BenchServer {
        let child: ChildProcess
        let url: String
        let logs: [String]

        init(_ server: String) throws {
            let base = FileManager.default.temporaryDirectory.appendingPathComponent("bench-server-\(UUID())").path
            let logs = [base + ".out", base + ".err"]
            self.logs = logs
            child = try ChildProcess(
                executable: server,
                arguments: ["--phase", "dev", "--host", "127.0.0.1", "--port", "0", "--signup", "open", "--access-log", "off"],
                environment: ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"], output: logs[0], error: logs[1],
                ownGroup: true)
            let text = { logs.map { (try? String(contentsOfFile: $0, encoding: .utf8)) ?? "" }.joined(separator: "\n") }
            // The line that names the port, within 30 s.
            var found: String?
            for _ in 0..<1_500 where found == nil && child.isRunning {
                found = text().split(separator: "\n").first { $0.contains("listening on http://") }.flatMap { line in
                    line.range(of: "http://").map { String(line[$0.lowerBound...].prefix { !$0.isWhitespace }) }
                }
                if found == nil { usleep(20_000) }
            }
            guard let found else {
                child.send(SIGKILL)
                _ = child.wait()
                throw BenchFailure(what: "tokens-server did not start: \(text())")
            }
            url = found
        }

        func stop() {
            child.send(SIGTERM)
            _ = child.wait()
            for log in logs { try? FileManager.default.removeItem(atPath: log) }
        }
    }
}
