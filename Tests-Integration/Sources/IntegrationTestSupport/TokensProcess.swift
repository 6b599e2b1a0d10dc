import Foundation
@_exported import ProcessKit

/// Runs the real `tokens` binary as a child process, with a clean, temporary environment.
public enum TokensProcess {
    /// The binary: `$TOKENS_BIN` (the Makefile sets it), else App's debug build, built on demand.
    public static let binary = executable("tokens", variable: "TOKENS_BIN")

    /// One of App's executables: the path in `variable`, else App's debug build, built on demand.
    public static func executable(_ product: String, variable: String) -> String {
        if let path = ProcessInfo.processInfo.environment[variable], !path.isEmpty { return path }
        let app = RepositoryRoot.url.appendingPathComponent("App").path
        _ = try? ProcessRunner.run("swift", ["build", "--package-path", app, "--product", product])
        let binPath =
            (try? ProcessRunner.run("swift", ["build", "--package-path", app, "--show-bin-path"]))?.stdout
            .trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        return binPath + "/" + product
    }

    /// Runs `tokens` with `arguments`, HOME and the XDG folders inside `home`, plus `environment`;
    /// `measuringPeakMemory` as ProcessRunner's.
    public static func run(
        _ arguments: [String], home: URL, environment: [String: String] = [:], input: String? = nil,
        measuringPeakMemory: Bool = false
    ) throws -> ProcessResult {
        try ProcessRunner.run(
            binary, arguments, environment: self.environment(home: home, extra: environment), input: input,
            measuringPeakMemory: measuringPeakMemory)
    }

    /// A clean environment: HOME and the XDG folders inside `home`, no colours, plus `extra`.
    public static func environment(home: URL, extra: [String: String] = [:]) -> [String: String] {
        var environment = [
            "HOME": home.path, "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
            "XDG_DATA_HOME": home.appendingPathComponent("data").path,
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "NO_COLOR": "1",
        ]
        environment.merge(extra) { $1 }
        return environment
    }
}

/// A temporary folder for one test, removed when the test ends.
public struct TemporaryHome: ~Copyable {
    public let url: URL

    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("tokens-home-\(UUID())")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// Every file below the folder, relative paths.
    public func files() -> [String] {
        (FileManager.default.enumerator(atPath: url.path)?.allObjects as? [String]) ?? []
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}
