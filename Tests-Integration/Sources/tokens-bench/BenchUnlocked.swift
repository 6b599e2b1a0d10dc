import Foundation
import ProcessKit

/// `make bench`, part 12: REAL `tokens code` while `tokens unlock` keeps the vault's key in the
/// kernel keyring (no passphrase, no scrypt), on a vault of 30 accounts and one of 1 000.
extension Bench {
    static func unlockedCode(tokens: String) throws -> [Result] {
        let oathtool = ProcessRunner.which("oathtool")
        return try [30, 1_000].map { count in
            let home = BenchHome()
            var environment = home.environment
            _ = try ProcessRunner.run(tokens, ["init", "--phase", "real"], environment: environment)
            let uris = (0..<count).map { "otpauth://totp/Bench\($0):me?secret=\(secret)" }.joined(separator: "\n")
            let file = try home.file("accounts.txt", Data(uris.utf8))
            _ = try ProcessRunner.run(tokens, ["import", file, "--duplicates", "keep", "--phase", "real"], environment: environment)
            let unlocked = try ProcessRunner.run(tokens, ["unlock", "--for", "10m", "--phase", "real"], environment: environment)
            defer { _ = try? ProcessRunner.run(tokens, ["lock", "--phase", "real"], environment: environment) }
            // Without the passphrase: a command that needed it would fail, and count for nothing.
            environment["TOKENS_PASSPHRASE"] = nil
            let query = ["code", "bench\(count - 1)", "--phase", "real"]
            let works = unlocked.status == 0 && (try? ProcessRunner.run(tokens, query, environment: environment))?.status == 0
            let (oath, ours) = Measure.inTurn(
                rounds: 3, { oathtool.flatMap { Measure.commandMedian($0, ["--totp", "-b", secret]) } },
                { works ? Measure.commandMedian(tokens, query, environment: environment) : nil })
            // The goal is for a vault of everyday size; 1 000 accounts is reported: every entry is
            // read, hashed for the manifest and decrypted to search (PERFORMANCE.md).
            let hasGoal = count <= 30
            return Result(
                name: "tokens code (REAL, unlocked, \(count) accounts), whole process, median of 3 × 21", value: ours ?? .nan,
                unit: "s", comparedTo: "oathtool --totp -b", reference: oath, goal: hasGoal ? "≤ 3× oathtool" : "reported",
                met: hasGoal ? ours.flatMap { ours in oath.map { ours <= 3 * $0 } } : nil)
        }
    }
}
