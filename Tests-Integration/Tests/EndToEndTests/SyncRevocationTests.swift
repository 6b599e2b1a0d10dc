import Foundation
import IntegrationTestSupport
import Testing

/// Revocation that means it, as a user types it: three machines syncing through a DEV
/// `tokens-server`; one is revoked by name; the sync key is replaced and reaches the two that
/// stay through their device keys, never through the server in the clear.
@Suite("tokens sync revoke replaces the sync key")
struct SyncRevocationTests {
    typealias CLI = SyncCLITests

    @Test(
        "the revoked machine is refused and told what to do; its old code opens nothing; the others follow the new key; a machine joins with the new code"
    )
    func revokeRotates() throws {
        let server = try ServerProcess(["--phase", "dev"])
        let url = server.baseURL.absoluteString
        let laptop = try TemporaryHome()
        let desktop = try TemporaryHome()
        let phone = try TemporaryHome()
        let tablet = try TemporaryHome()
        for home in [laptop.url, desktop.url, phone.url, tablet.url] { try CLI.tokens(["init"], home) }
        try CLI.tokens(["add", "-"], laptop.url, input: CLI.github + "\n")
        try CLI.tokens(["sync", "init", "--server", url, "--name", "laptop"], laptop.url)
        let oldCode = try CLI.tokens(["sync", "code"], laptop.url).stdout
        try CLI.tokens(["sync", "join", "--server", url, "--name", "desktop"], desktop.url, input: oldCode)
        try CLI.tokens(["sync", "join", "--server", url, "--name", "phone"], phone.url, input: oldCode)

        // Revoking this very machine is refused, with the command that does it.
        #expect(try CLI.tokens(["sync", "revoke", "laptop"], laptop.url, status: 64).stderr.contains("tokens sync leave"))
        let revoked = try CLI.tokens(["sync", "revoke", "PHONE"], laptop.url).stdout
        #expect(
            revoked.contains("Revoked phone") && revoked.contains("version 2") && revoked.contains("shared with 2 machines"), "\(revoked)")
        let newCode = try CLI.tokens(["sync", "code"], laptop.url).stdout
        #expect(newCode != oldCode)

        // The phone's token opens nothing, and it is told how to come back (not in a circle).
        let refused = try CLI.tokens(["sync"], phone.url, status: 6).stderr
        #expect(refused.contains("revoked from sync: tokens sync leave, then tokens sync join"), "\(refused)")
        // sync status says so too, without asking the server; leaving clears it.
        #expect(try CLI.tokens(["sync", "status"], phone.url).stdout.contains("revoked from sync: tokens sync leave"))
        #expect(try CLI.tokens(["sync", "status", "--json"], phone.url).stdout.contains("\"revoked\" : true"))
        // Its copy of the old code enrols nothing any more.
        try CLI.tokens(["sync", "join", "--server", url, "--name", "again"], tablet.url, input: oldCode, status: 6)

        // A change made after the revocation reaches the desktop, which takes the new key first.
        try CLI.tokens(["edit", "github", "--note", "after the revoke"], laptop.url)
        try CLI.tokens(["sync"], laptop.url)
        try CLI.tokens(["sync"], desktop.url)
        #expect(try CLI.tokens(["list", "--json"], desktop.url).stdout.contains("after the revoke"))
        #expect(try CLI.tokens(["sync", "code"], desktop.url).stdout == newCode)
        // The desktop's own changes go on under the new key.
        try CLI.tokens(["add", "-"], desktop.url, input: CLI.bank + "\n")
        try CLI.tokens(["sync"], desktop.url)

        // A machine joins with the new code and has everything.
        let joined = try CLI.tokens(["sync", "join", "--server", url, "--name", "tablet"], tablet.url, input: newCode).stdout
        #expect(joined.contains("2 received"), "\(joined)")
        try CLI.tokens(["sync"], laptop.url)
        #expect(try CLI.accounts(tablet.url) == CLI.accounts(laptop.url))
        #expect(try CLI.accounts(desktop.url) == CLI.accounts(laptop.url))
        // The phone kept what it had, and nothing new.
        #expect(try !CLI.tokens(["list", "--json"], phone.url).stdout.contains("after the revoke"))
        #expect(server.stop() == .exited(0))
    }

    @Test(
        "passwd on a syncing vault replaces the sync key too: the old code opens nothing new, the other machine follows; offline it says how to do it later"
    )
    func passwdRekeys() throws {
        let server = try ServerProcess(["--phase", "dev"])
        let url = server.baseURL.absoluteString
        let laptop = try TemporaryHome()
        let desktop = try TemporaryHome()
        let tablet = try TemporaryHome()
        for home in [laptop.url, desktop.url, tablet.url] { try CLI.tokens(["init"], home) }
        try CLI.tokens(["add", "-"], laptop.url, input: CLI.github + "\n")
        try CLI.tokens(["sync", "init", "--server", url, "--name", "laptop"], laptop.url)
        let oldCode = try CLI.tokens(["sync", "code"], laptop.url).stdout
        try CLI.tokens(["sync", "join", "--server", url, "--name", "desktop"], desktop.url, input: oldCode)

        let passwd = { () throws -> ProcessResult in
            try TokensProcess.run(
                ["--phase", "real", "passwd"], home: laptop.url,
                environment: Vaults.environment().merging(["TOKENS_NEW_PASSPHRASE": Vaults.passphrase]) { _, new in new })
        }
        let changed = try passwd()
        #expect(changed.status == 0 && changed.stdout.contains("Passphrase changed"), "\(changed.stderr)")
        #expect(changed.stdout.contains("The sync key was replaced (version 2) and shared with 2 machines"), "\(changed.stdout)")
        let newCode = try CLI.tokens(["sync", "code"], laptop.url).stdout
        #expect(newCode != oldCode)
        try CLI.tokens(["sync", "join", "--server", url, "--name", "old copy"], tablet.url, input: oldCode, status: 6)
        try CLI.tokens(["sync"], desktop.url)
        #expect(try CLI.tokens(["sync", "code"], desktop.url).stdout == newCode)

        #expect(server.stop() == .exited(0))
        let offline = try passwd()
        #expect(offline.status == 0 && offline.stderr.contains("run tokens sync rekey when the server can be reached"), "\(offline.stderr)")
    }
}
