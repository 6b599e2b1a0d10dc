import Foundation
import ProcessKit

/// `make bench`, part 12: REAL `tokens code` on vaults of 30, 1 000 and 10 000 accounts, while
/// `tokens unlock` keeps the vault's key in the kernel keyring (no passphrase, no scrypt),
/// against `oathtool`; and with the passphrase at 10 000 accounts, against the same command on
/// a vault of one account (the KDF and a process start, measured in the same run).
extension Bench {
    static func unlockedCode(tokens: String) throws -> [Result] {
        let oathtool = ProcessRunner.which("oathtool")
        var results: [Result] = []
        var withPassphrase: [Int: Double] = [:]
        for count in [1, 30, 1_000, 10_000] {
            let home = try realVault(tokens: tokens, accounts: count)
            var environment = home.environment
            let query = ["code", "bench\(count - 1)", "--phase", "real"]
            if count == 1 || count == 10_000 {
                let works = (try? ProcessRunner.run(tokens, query, environment: environment))?.status == 0
                withPassphrase[count] = works ? Measure.commandMedian(tokens, query, environment: environment) : nil
            }
            guard count > 1 else { continue }
            let unlocked = try ProcessRunner.run(tokens, ["unlock", "--for", "10m", "--phase", "real"], environment: environment)
            defer { _ = try? ProcessRunner.run(tokens, ["lock", "--phase", "real"], environment: environment) }
            // Without the passphrase: a command that needed it would fail, and count for nothing.
            environment["TOKENS_PASSPHRASE"] = nil
            let works = unlocked.status == 0 && (try? ProcessRunner.run(tokens, query, environment: environment))?.status == 0
            let (oath, ours) = Measure.inTurn(
                rounds: 3, { oathtool.flatMap { Measure.commandMedian($0, ["--totp", "-b", secret]) } },
                { works ? Measure.commandMedian(tokens, query, environment: environment) : nil })
            results.append(
                Result(
                    name: "tokens code (REAL, unlocked, \(count) accounts), whole process, median of 3 × 21", value: ours ?? .nan,
                    unit: "s", comparedTo: "oathtool --totp -b", reference: oath, goal: "≤ 3× oathtool",
                    met: ours.flatMap { ours in oath.map { ours <= 3 * $0 } }))
        }
        let kdf = withPassphrase[1]
        let ours = withPassphrase[10_000]
        results.append(
            Result(
                name: "tokens code (REAL, passphrase, 10 000 accounts), whole process, median of 21", value: ours ?? .nan, unit: "s",
                comparedTo: "the same on a vault of 1 account (the KDF)", reference: kdf, goal: "≤ KDF + 5 ms",
                met: ours.flatMap { ours in kdf.map { ours <= $0 + 0.005 } }))
        return results
    }

    /// A REAL vault of `count` accounts named Bench0, Bench1… in a fresh home (passphrase in
    /// its environment).
    static func realVault(tokens: String, accounts count: Int) throws -> BenchHome {
        let home = BenchHome()
        _ = try ProcessRunner.run(tokens, ["init", "--phase", "real"], environment: home.environment)
        let uris = (0..<count).map { "otpauth://totp/Bench\($0):me?secret=\(secret)" }.joined(separator: "\n")
        let file = try home.file("accounts.txt", Data(uris.utf8))
        _ = try ProcessRunner.run(tokens, ["import", file, "--duplicates", "keep", "--phase", "real"], environment: home.environment)
        return home
    }
}
