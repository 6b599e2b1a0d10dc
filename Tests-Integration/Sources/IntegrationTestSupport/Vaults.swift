import Foundation

/// Helpers for tests of the ALPHA and REAL phases through the binary.
public enum Vaults {
    public static let passphrase = "correct horse battery staple"

    /// The environment that unlocks a test vault.
    public static func environment(_ passphrase: String = Vaults.passphrase) -> [String: String] {
        ["TOKENS_PASSPHRASE": passphrase]
    }

    /// The vault file of a phase inside a temporary home.
    public static func path(phase: String, home: URL) -> URL {
        home.appendingPathComponent("data/\(phase == "alpha" ? "tokens-alpha" : "tokens")/vault.sqlite")
    }

    /// Every file in the folder and its bytes.
    public static func snapshot(_ folder: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            files[name] = try Data(contentsOf: folder.appendingPathComponent(name))
        }
        return files
    }

    /// A Key URI for a test account.
    public static func uri(issuer: String, account: String = "me", secret: String = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ") -> String {
        "otpauth://totp/\(issuer):\(account)?secret=\(secret)&issuer=\(issuer)"
    }
}

/// A child process left running, for tests that kill it.
public final class RunningProcess {
    public let process = Process()
    private let directory: URL
    private let outURL: URL

    /// Starts `tokens` with `arguments` in `home` and `environment`.
    public init(tokens arguments: [String], home: URL, environment: [String: String]) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("running-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        outURL = directory.appendingPathComponent("out")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        process.executableURL = URL(fileURLWithPath: TokensProcess.binary)
        process.arguments = arguments
        process.environment = TokensProcess.environment(home: home, extra: environment)
        process.standardOutput = try FileHandle(forWritingTo: outURL)
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    /// Sends SIGKILL and waits for the process to end.
    public func kill() {
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// What the process printed so far.
    public var output: String {
        (try? String(contentsOf: outURL, encoding: .utf8)) ?? ""
    }

    deinit { try? FileManager.default.removeItem(at: directory) }
}

/// A seeded generator (SplitMix64): the same choices on every run.
public struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
