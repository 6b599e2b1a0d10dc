import Foundation
import IntegrationTestSupport
import Testing

/// A backup restored after a revocation, as an operator runs it (pg_dump, pg_restore) with the
/// user's machines as processes: the server forgets the revocation and the key it replaced, and a
/// machine that followed the new key gives both back at its next sync.
@Suite("A restore does not undo a revocation")
struct ServerRestoreRevocationTests {
    typealias CLI = SyncCLITests

    @Test(
        "a server restored from before a revocation: the first machine to sync gives it back; the revoked machine and its old code stay refused; the others converge"
    )
    func revocationHoldsAcrossRestore() throws {
        try TestDatabase.with(prefix: "tokens_restore_revoke") { database, url in
            let serverEnvironment = ["TOKENS_SERVER_DATABASE_URL": url]
            let laptop = try TemporaryHome()
            let desktop = try TemporaryHome()
            let phone = try TemporaryHome()
            let tablet = try TemporaryHome()
            for home in [laptop.url, desktop.url, phone.url, tablet.url] { try CLI.tokens(["init"], home) }
            let server = try ServerProcess(["--phase", "alpha"], environment: serverEnvironment)
            let address = server.baseURL.absoluteString
            try CLI.tokens(["add", "-"], laptop.url, input: CLI.github + "\n")
            try CLI.tokens(["sync", "init", "--server", address, "--name", "laptop"], laptop.url)
            let oldCode = try CLI.tokens(["sync", "code"], laptop.url).stdout
            try CLI.tokens(["sync", "join", "--server", address, "--name", "desktop"], desktop.url, input: oldCode)
            try CLI.tokens(["sync", "join", "--server", address, "--name", "phone"], phone.url, input: oldCode)

            let backup = try DatabaseBackup.take(of: database)
            defer { backup.remove() }
            try CLI.tokens(["sync", "revoke", "phone"], laptop.url)
            // The desktop follows the new key (and learns who was revoked) before the restore.
            try CLI.tokens(["sync"], desktop.url)

            let port = try #require(server.baseURL.port)
            #expect(server.stop() == .exited(0))
            try backup.restore()
            let again = try ServerProcess(["--phase", "alpha"], environment: serverEnvironment, port: port)

            // The desktop, not the machine that revoked, is the first to sync: it gives it back.
            let given = try CLI.tokens(["sync"], desktop.url).stderr
            #expect(given.contains("the server had lost a replacement of the sync key"), "\(given)")
            let refused = try CLI.tokens(["sync"], phone.url, status: 6).stderr
            #expect(refused.contains("revoked from sync"), "\(refused)")
            try CLI.tokens(["sync", "join", "--server", address, "--name", "again"], tablet.url, input: oldCode, status: 6)

            // The laptop syncs on as before; a change reaches the desktop and not the phone.
            let laptopSync = try CLI.tokens(["sync"], laptop.url).stderr
            #expect(!laptopSync.contains("replacement of the sync key"), "\(laptopSync)")
            try CLI.tokens(["edit", "github", "--note", "after the restore"], laptop.url)
            try CLI.tokens(["sync"], laptop.url)
            try CLI.tokens(["sync"], desktop.url)
            #expect(try CLI.accounts(desktop.url) == CLI.accounts(laptop.url))
            #expect(try CLI.tokens(["list", "--json"], desktop.url).stdout.contains("after the restore"))
            #expect(try !CLI.tokens(["list", "--json"], phone.url).stdout.contains("after the restore"))
            #expect(again.stop() == .exited(0))
        }
    }
}
