import Foundation
import ProcessKit

/// `make bench`, backups: `tokens backup` of a REAL vault of 1 000 accounts, through the
/// installed binary: the copy written, opened with the vault's key and every account decrypted.
extension Bench {
    static func backup(tokens: String) throws -> Result {
        let home = BenchHome()
        let uris = (0..<1_000).map { "otpauth://totp/Issuer\($0):user\($0)@example.com?secret=\(secret)" }.joined(separator: "\n")
        let file = try home.file("accounts.txt", Data(uris.utf8))
        var environment = home.environment
        environment["TOKENS_BACKUP_AUTO"] = "0"
        for arguments in [["init"], ["import", file, "--duplicates", "keep", "--quiet"]] {
            let result = try ProcessRunner.run(tokens, arguments + ["--phase", "real"], environment: environment)
            guard result.status == 0 else { throw BenchFailure(what: "tokens \(arguments[0]): \(result.stderr)") }
        }
        let listed = Measure.commandMedian(tokens, ["list", "--phase", "real"], environment: environment, runs: 11)
        let backedUp = Measure.commandMedian(tokens, ["backup", "--phase", "real"], environment: environment, runs: 11) ?? .nan
        return Result(
            name: "tokens backup of 1 000 accounts, written and verified, whole command (median of 11)", value: backedUp, unit: "s",
            comparedTo: "tokens list of the same vault", reference: listed, goal: "< 0.3 s", met: backedUp < 0.3)
    }
}
