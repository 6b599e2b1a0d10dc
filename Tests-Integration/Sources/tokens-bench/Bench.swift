import AppComposition
import Domain
import Foundation
import Presentation
import ProcessKit
import TerminalUI

/// `make bench`: Tokens against oathtool, Python's scrypt and its own goals, measured in one run
/// so the ratios hold on a noisy machine. Prints a table and writes bench/results.json.
@main
enum Bench {
    static let secret = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"

    static func main() async throws {
        let parsed: BenchOptions?
        do {
            parsed = try BenchOptions.parse(Array(CommandLine.arguments.dropFirst()))
        } catch {
            FileHandle.standardError.write(Data("tokens-bench: \(error.message) (tokens-bench --help: the options)\n".utf8))
            exit(2)
        }
        guard let options = parsed else {
            print(BenchOptions.usage)
            return
        }
        let (tokens, server, output) = (options.tokens, options.server, options.output)
        var results: [Result] = []
        if let only = options.only, let tokens {
            switch only {
            case .sync: if let server { printTable(try sync(tokens: tokens, server: server)) }
            case .code: printTable(try unlockedCode(tokens: tokens))
            case .screen: printTable(try firstFrame(tokens: tokens))
            case .pictures: printTable(try pictures(tokens: tokens))
            case .backup: printTable([try backup(tokens: tokens)])
            }
            return
        }
        results.append(try throughput())
        if let tokens {
            results += try oneShot(tokens: tokens)
            results += try unlockedCode(tokens: tokens)
            results += try firstFrame(tokens: tokens)
            results += try startup(tokens: tokens)
            results.append(try binarySize(tokens: tokens))
            results.append(try importSpeed(tokens: tokens))
            results.append(try importMemory(tokens: tokens))
            results.append(try backup(tokens: tokens))
            results += try hostileFiles(tokens: tokens)
            results += try pictures(tokens: tokens)
            if let server { results += try sync(tokens: tokens, server: server) }
        }
        results += try await search()
        results += try await frames()
        results.append(try await importAegis())
        results.append(try unlock())
        printTable(results)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        let report = Report(machine: Machine.description, results: results)
        try FileManager.default.createDirectory(
            atPath: (output as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try encoder.encode(report).write(to: URL(fileURLWithPath: output))
        print("wrote \(output)")
    }

    struct Report: Encodable {
        let machine: String
        let results: [Result]
    }

    /// 1. Codes a second on one core, beside `oathtool --totp -w 999999` (a million codes).
    static func throughput() throws -> Result {
        let generator = AppComposer.makeOTPGenerator()
        let account = Account(
            id: UUID(), spec: try AccountSpec(issuer: "B", name: "b", secret: Secret(base32: secret), kind: .totp(period: 30)),
            createdAt: Date(timeIntervalSince1970: 0))
        let count = 1_000_000
        let prepared = generator.prepared(for: account)
        let oathtool = ProcessRunner.which("oathtool")
        // Five rounds, Tokens and oathtool in turn; each figure is the median of its rounds.
        let (mine, oath) = Measure.inTurn(
            rounds: 5,
            {
                var sink = 0
                let elapsed = Measure.seconds {
                    for counter in 0..<UInt64(count) { sink &+= prepared.code(counter: counter).utf8.count }
                }
                precondition(sink > 0)
                return Double(count) / elapsed
            },
            {
                guard let oathtool else { return nil }
                let process = Process()
                let seconds = Measure.seconds {
                    process.executableURL = URL(fileURLWithPath: oathtool)
                    process.arguments = ["--totp", "-b", "-w", "999999", secret]
                    process.standardOutput = FileHandle.nullDevice
                    try? process.run()
                    process.waitUntilExit()
                }
                return process.terminationStatus == 0 ? Double(count) / seconds : nil
            })
        let ours = mine ?? .nan
        return Result(
            name: "TOTP codes per second, one core, median of 5", value: ours, unit: "codes/s", comparedTo: "oathtool -b -w 999999",
            reference: oath, goal: "≥ oathtool", met: oath.map { ours >= $0 })
    }

    /// 2. One-shot `tokens code` as a whole process, against `oathtool --totp -b SECRET`.
    static func oneShot(tokens: String) throws -> [Result] {
        let oathtool = ProcessRunner.which("oathtool")
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("bench-\(getpid())")
        defer { try? FileManager.default.removeItem(at: home) }
        var environment = [
            "HOME": home.path, "XDG_DATA_HOME": home.appendingPathComponent("data").path,
            "XDG_CONFIG_HOME": home.appendingPathComponent("config").path, "TOKENS_PASSPHRASE": "bench",
        ]
        environment["PATH"] = ProcessInfo.processInfo.environment["PATH"]
        // Three rounds of 21 runs each, the two commands in turn; each figure is the median of
        // its round medians.
        let (oath, dev) = Measure.inTurn(
            rounds: 3, { oathtool.flatMap { Measure.commandMedian($0, ["--totp", "-b", secret]) } },
            { Measure.commandMedian(tokens, ["code", "github", "--phase", "dev"], environment: environment) })
        var results = [
            Result(
                name: "tokens code (DEV), whole process, median of 3 × 21", value: dev ?? .nan, unit: "s",
                comparedTo: "oathtool --totp -b", reference: oath, goal: "≤ 3× oathtool",
                met: dev.flatMap { dev in oath.map { dev <= 3 * $0 } })
        ]
        // REAL with 1 000 accounts: the KDF (scrypt) is most of it, reported on its own below.
        _ = try? ProcessRunner.run(tokens, ["init"], environment: environment)
        let uris = (0..<1000).map { "otpauth://totp/Bench\($0):me?secret=\(secret)" }.joined(separator: "\n")
        let file = home.appendingPathComponent("bulk.txt")
        try? Data(uris.utf8).write(to: file)
        _ = try? ProcessRunner.run(tokens, ["import", file.path, "--duplicates", "keep"], environment: environment)
        let real = Measure.commandMedian(tokens, ["code", "bench999"], environment: environment)
        results.append(
            Result(
                name: "tokens code (REAL, 1 000 accounts, includes the KDF), median of 21", value: real ?? .nan, unit: "s",
                comparedTo: "oathtool --totp -b", reference: oath, goal: "reported; KDF cost below", met: nil))
        return results
    }

    /// 5. Import of a 10 000-entry Aegis plain file (decode, duplicates, report; dry run).
    static func importAegis() async throws -> Result {
        let accounts = (0..<10_000).map { number in
            Account(
                id: UUID(), issuer: "Issuer \(number)", name: "user\(number)",
                secret: Secret(bytes: withUnsafeBytes(of: UInt64(number).bigEndian) { Array($0) } + [1, 2, 3, 4, 5, 6, 7, 8]),
                kind: .totp(period: 30), createdAt: Date(timeIntervalSince1970: 0), updatedAt: Date(timeIntervalSince1970: 0))
        }
        let file = try AppComposer.makeInteropCodec().encode(accounts, as: .aegis, password: nil).data
        // The median of 5 imports, each into a fresh DEV store (one run alone swung by half).
        var times: [Double] = []
        for _ in 0..<5 {
            let importer = DevContainer().makeImportAccountsUseCase()
            var added = 0
            times.append(
                try await Measure.asyncSeconds {
                    added = try await importer.execute(file, format: nil, password: nil, duplicates: .skip, dryRun: false).added.count
                })
            precondition(added == 10_000)
        }
        let elapsed = Measure.median(times) ?? .nan
        return Result(
            name: "import 10 000-entry Aegis plain file, median of 5", value: elapsed, unit: "s", comparedTo: nil,
            reference: nil, goal: "< 0.5 s", met: elapsed < 0.5)
    }

    static func printTable(_ results: [Result]) {
        print("Machine: \(Machine.description)")
        print(String(repeating: "-", count: 100))
        for result in results {
            let reference = result.reference.map { String(format: "%.4g", $0) } ?? "-"
            let ratio = result.reference.map { String(format: "%.2f×", result.value / $0) } ?? ""
            let verdict = result.met.map { $0 ? "met" : "MISSED" } ?? ""
            print(
                "\(result.name)\n    \(String(format: "%.4g", result.value)) \(result.unit)   vs \(result.comparedTo ?? "-"): \(reference) \(ratio)   goal \(result.goal) \(verdict)"
            )
        }
    }
}

/// A clock that moves `step` seconds on every reading, from the start of a 30-second period.
final class SteppingClock: WallClock, @unchecked Sendable {
    private let step: TimeInterval
    private let lock = NSLock()
    private var seconds: TimeInterval = 1_700_000_010

    init(step: TimeInterval) { self.step = step }

    /// The whole seconds of the last reading.
    var lastReading: Int { lock.withLock { Int(seconds) } }

    func now() -> Date {
        lock.withLock {
            seconds += step
            return Date(timeIntervalSince1970: seconds)
        }
    }
}
