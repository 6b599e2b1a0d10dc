import Foundation
import ProcessKit

/// `make bench`, part 4: start-up of the one-shot commands that need no vault, and the size of
/// the installed binary.
extension Bench {
    /// The commands measured: each needs no vault and no passphrase.
    static let startupCommands: [[String]] = [
        ["--version"], ["--help"], ["help", "code"], ["code", "--uri", "otpauth://totp/Bench:me?secret=\(secret)"],
        ["config", "path", "--phase", "dev"], ["config", "show", "--phase", "dev"],
    ]

    /// 10. Each command as a whole process, against `oathtool --totp -b SECRET`, in turn (3
    /// rounds of 21 runs through hyperfine); each figure is the median of its round medians.
    static func startup(tokens: String) throws -> [Result] {
        let home = BenchHome()
        let oathtool = ProcessRunner.which("oathtool")
        return startupCommands.map { arguments in
            let (oath, ours) = Measure.inTurn(
                rounds: 3, { oathtool.flatMap { Measure.commandMedian($0, ["--totp", "-b", secret]) } },
                { Measure.commandMedian(tokens, arguments, environment: home.environment) })
            let shown = arguments.first == "code" ? "code --uri URI" : arguments.joined(separator: " ")
            return Result(
                name: "tokens \(shown), whole process, median of 3 × 21", value: ours ?? .nan, unit: "s",
                comparedTo: "oathtool --totp -b", reference: oath, goal: "≤ 3× oathtool",
                met: ours.flatMap { ours in oath.map { ours <= 3 * $0 } })
        }
    }

    /// 11. The size of the binary measured: `make bench` passes the installed (stripped) one.
    static func binarySize(tokens: String) throws -> Result {
        let size = try FileManager.default.attributesOfItem(atPath: tokens)[.size] as? Int
        let megabytes = size.map { Double($0) / 1_000_000 }
        return Result(
            name: "installed tokens binary (stripped)", value: megabytes ?? .nan, unit: "MB", comparedTo: nil, reference: nil,
            goal: "reported", met: nil)
    }
}
