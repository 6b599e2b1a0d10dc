import Foundation
import IntegrationTestSupport
import Testing

/// `make install-server`'s steps after the release build, on the binary at hand: the staged
/// binary stripped, the unit's ExecStart pointing into the prefix (which `systemd-analyze verify`
/// accepts), and an uninstall that leaves nothing of its own, and nothing of `tokens`'s touched.
@Suite("make install-server and make uninstall-server")
struct ServerInstallTests {
    static let scripts = RepositoryRoot.url.appendingPathComponent("App/Scripts")

    @discardableResult
    static func script(_ name: String, _ arguments: [String], product: String = "tokens-server") throws -> ProcessResult {
        let result = try ProcessRunner.run(
            scripts.appendingPathComponent(name).path, arguments,
            environment: ["PATH": "/usr/bin:/bin", "PRODUCT": product, "DEBUG_SYMBOLS": "0"])
        #expect(result.status == 0, "\(name) \(arguments): \(result.stderr)")
        return result
    }

    @Test("the server and its unit go under the prefix, run from there, and come out again, beside an install of tokens")
    func installAndUninstall() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("install-server-\(UUID())")
        defer { try? FileManager.default.removeItem(at: root) }
        let prefix = root.appendingPathComponent("prefix").path
        let stage = root.appendingPathComponent("stage").path
        let unit = "\(prefix)/lib/systemd/system/tokens-server.service"
        // Another product's install in the same prefix stays whole.
        let tokensStage = root.appendingPathComponent("tokens-stage/bin")
        try FileManager.default.createDirectory(at: tokensStage, withIntermediateDirectories: true)
        try Data("#!/bin/sh\n".utf8).write(to: tokensStage.appendingPathComponent("tokens"))
        try Self.script("install.sh", ["install", root.appendingPathComponent("tokens-stage").path, prefix], product: "tokens")

        try Self.script("stage-server.sh", [ServerProcess.binary, stage, prefix])
        try Self.script("install.sh", ["install", stage, prefix])
        let version = try ProcessRunner.run("\(prefix)/bin/tokens-server", ["--version"], environment: ["PATH": "/usr/bin:/bin"])
        #expect(version.status == 0 && version.stdout.hasPrefix("tokens-server "), "\(version.stderr)")
        let text = try String(contentsOfFile: unit, encoding: .utf8)
        #expect(text.contains("\nExecStart=\(prefix)/bin/tokens-server --phase real") && text.contains("Type=notify"))
        // Each command the unit runs is the installed server or the shell: nothing a minimal system
        // or a container may lack (/bin/kill, from procps, is missing from Debian's minimal base).
        let programs = text.split(separator: "\n").filter { $0.hasPrefix("Exec") }.compactMap {
            $0.split(separator: "=", maxSplits: 1).last?.split(separator: " ").first.map(String.init)
        }
        #expect(programs.count == 2 && Set(programs).isSubset(of: ["\(prefix)/bin/tokens-server", "/bin/sh"]), "\(programs)")
        #expect(try Self.size("\(prefix)/bin/tokens-server") < Self.size(ServerProcess.binary), "stripped")
        if let analyze = ProcessRunner.which("systemd-analyze") {
            let verified = try ProcessRunner.run(analyze, ["verify", unit], environment: ["PATH": "/usr/bin:/bin"])
            #expect(verified.status == 0 && verified.stderr.isEmpty, "\(verified.stderr)")
        }

        try Self.script("install.sh", ["uninstall", prefix])
        for gone in ["bin/tokens-server", "lib", "share/tokens-server"] {
            #expect(!FileManager.default.fileExists(atPath: "\(prefix)/\(gone)"), "\(gone) is left")
        }
        #expect(FileManager.default.fileExists(atPath: "\(prefix)/bin/tokens"))
        #expect(FileManager.default.fileExists(atPath: "\(prefix)/share/tokens/install-manifest"))
    }

    static func size(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    }
}
