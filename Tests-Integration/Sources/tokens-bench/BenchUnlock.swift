import AppComposition
import AppConfiguration
import Foundation
import ProcessKit

/// Vault unlock through the composition root, against Python's hashlib.scrypt.
extension Bench {
    /// 6. Opening a REAL vault's container at the default KDF parameters (what every vault
    /// command pays first, through the production factory), against Python's hashlib.scrypt
    /// with the same parameters.
    static func unlock() throws -> Result {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bench-vault-\(getpid())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let settings = AppSettings(
            phase: Sourced(.real, from: .flag("--phase")), logLevel: Sourced(.error, from: .default),
            vaultPath: Sourced(directory.appendingPathComponent("vault.sqlite").path, from: .default),
            configFile: "/nonexistent", configFileExists: false)
        let passphrase = PassphraseSource(environment: [PassphraseSource.variable: "bench"], warn: { _ in })
        _ = try AppComposer.createVault(for: settings, passphrase: passphrase)
        var samples: [Double] = []
        for _ in 0..<7 {
            samples.append(try Measure.seconds { try AppComposer.makeContainer(for: settings, passphrase: passphrase).close() })
        }
        let ours = Measure.percentile(samples, 0.5)
        var python: Double?
        if let python3 = ProcessRunner.which("python3") {
            let script = """
                import hashlib, time
                samples = []
                for _ in range(7):
                    t = time.perf_counter(); hashlib.scrypt(b'bench', salt=b'0'*32, n=32768, r=8, p=1, maxmem=64*1024*1024, dklen=32); samples.append(time.perf_counter() - t)
                print(sorted(samples)[3])
                """
            let printed = (try? ProcessRunner.run(python3, ["-c", script]))?.stdout ?? ""
            python = Double(printed.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        return Result(
            name: "vault unlock at scrypt N=2^15 r=8 p=1, median of 7", value: ours, unit: "s",
            comparedTo: "python3 hashlib.scrypt", reference: python, goal: "≤ 1.1× hashlib.scrypt",
            met: python.map { ours <= 1.1 * $0 })
    }
}
