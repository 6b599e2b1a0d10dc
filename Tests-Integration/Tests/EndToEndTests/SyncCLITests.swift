import Foundation
import IntegrationTestSupport
import Testing

/// Two machines (two temporary homes, REAL phase) syncing through `tokens-server` with the
/// `tokens sync` commands, as a user types them.
@Suite("tokens sync between two machines")
struct SyncCLITests {
    /// Runs tokens in `home` with the REAL vault unlocked; the status must be `status`.
    static func tokens(
        _ arguments: [String], _ home: borrowing TemporaryHome, input: String? = nil, status: Int32 = 0,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> ProcessResult {
        let result = try TokensProcess.run(
            ["--phase", "real"] + arguments, home: home.url, environment: Vaults.environment(), input: input)
        #expect(result.status == status, "tokens \(arguments): \(result.stderr)", sourceLocation: sourceLocation)
        return result
    }

    /// What `list --json` says, without the seconds that tick.
    static func accounts(_ home: borrowing TemporaryHome) throws -> [String] {
        let listed = try tokens(["list", "--json"], home).stdout
        return listed.split(separator: "\n").filter { line in
            !["secondsRemaining", "\"code\"", "nextCode"].contains { line.contains($0) }
        }.map(String.init)
    }

    @Test("init on A, join on B with A's code on standard input, changes on both, the same list; leave, and a revoked machine is told so")
    func twoMachines() throws {
        let server = try ServerProcess(["--phase", "dev"])
        defer { _ = server.stop() }
        let url = server.baseURL.absoluteString
        let laptop = try TemporaryHome()
        let desktop = try TemporaryHome()
        for home in [laptop.url, desktop.url] {
            _ = try TokensProcess.run(["--phase", "real", "init"], home: home, environment: Vaults.environment())
        }
        _ = try Self.tokens(["add", "-"], laptop, input: "otpauth://totp/GitHub:alice?secret=JBSWY3DPEHPK3PXP&issuer=GitHub\n")
        _ = try Self.tokens(["add", "-"], desktop, input: "otpauth://hotp/Bank:bob?secret=GEZDGNBVGY3TQOJQ&issuer=Bank&counter=3\n")

        // Before joining, sync says how to start, with its own status.
        let notYet = try Self.tokens(["sync"], laptop, status: 6)
        #expect(notYet.stderr.contains("tokens sync init"))
        // HTTP is refused for a server elsewhere.
        _ = try Self.tokens(["sync", "init", "--server", "http://sync.example.com"], laptop, status: 1)

        let opened = try Self.tokens(["sync", "init", "--server", url, "--name", "laptop"], laptop)
        #expect(opened.stdout.contains("1 sent"))
        let code = try Self.tokens(["sync", "code"], laptop).stdout
        #expect(code.count > 85)
        _ = try Self.tokens(["sync", "join", "--server", url, "--name", "desktop"], desktop, input: "not a code", status: 1)
        let joined = try Self.tokens(["sync", "join", "--server", url, "--name", "desktop"], desktop, input: code)
        #expect(joined.stdout.contains("1 received, 1 sent"))
        _ = try Self.tokens(["sync"], laptop)
        #expect(try Self.accounts(laptop) == Self.accounts(desktop))
        #expect(try Self.accounts(laptop).joined().contains("Bank"))

        // An edit on each side, offline from each other, then both sync.
        _ = try Self.tokens(["edit", "github", "--groups", "Work"], laptop)
        _ = try Self.tokens(["code", "bank"], desktop)
        _ = try Self.tokens(["sync"], laptop)
        _ = try Self.tokens(["sync"], desktop)
        _ = try Self.tokens(["sync"], laptop)
        let ends = try Self.accounts(laptop)
        #expect(ends == (try Self.accounts(desktop)))
        #expect(ends.joined().contains("\"Work\"") && ends.joined().contains("\"counter\" : 4"))
        let status = try Self.tokens(["sync", "status", "--json"], desktop).stdout
        #expect(status.contains("\"pending\" : 0") && status.contains("\"syncing\" : true"))

        // The laptop revokes the desktop: its next sync is refused, with its reason.
        let devices = try Self.tokens(["sync", "devices"], laptop).stdout
        let desktopID = try #require(devices.split(separator: "\n").first { $0.contains("desktop") }?.split(separator: " ").first)
        _ = try Self.tokens(["sync", "revoke", String(desktopID)], laptop)
        let refused = try Self.tokens(["sync"], desktop, status: 6)
        #expect(refused.stderr.contains("removed from sync"))

        let left = try Self.tokens(["sync", "leave"], laptop)
        #expect(left.stdout.contains("Left the sync account"))
        #expect(try Self.tokens(["sync", "status"], laptop).stdout.contains("Not syncing"))
        #expect(try Self.accounts(laptop) == ends)
    }
}
