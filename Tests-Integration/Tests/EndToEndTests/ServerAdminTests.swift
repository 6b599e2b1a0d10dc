import Foundation
import IntegrationTestSupport
import Testing

/// `tokens-server admin` as an operator types it, on a real PostgreSQL: two machines sync
/// through an ALPHA server; the operator lists them, revokes one by name (refused at once,
/// with the server still running) and deletes the account (with the server stopped).
@Suite("tokens-server admin")
struct ServerAdminTests {
    typealias CLI = SyncCLITests

    /// Runs `tokens-server --phase alpha admin …` on the database of `url`; the status must be `status`.
    @discardableResult
    static func admin(
        _ arguments: [String], _ url: String, home: URL, status: Int32 = 0, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> ProcessResult {
        let result = try ProcessRunner.run(
            ServerProcess.binary, ["--phase", "alpha", "admin"] + arguments,
            environment: TokensProcess.environment(home: home, extra: ["TOKENS_SERVER_DATABASE_URL": url]))
        #expect(result.status == status, "admin \(arguments): \(result.stderr)", sourceLocation: sourceLocation)
        // A command that did its work says nothing on standard error (no pool chatter either).
        if status == 0 { #expect(result.stderr.isEmpty, "admin \(arguments): \(result.stderr)", sourceLocation: sourceLocation) }
        return result
    }

    @Test(
        "accounts and devices are listed (each device's last request too), a device revoked by name is refused at once, an account is deleted only with --yes"
    )
    func listRevokeDelete() throws {
        try TestDatabase.with(prefix: "tokens_admin") { _, url in
            let operatorHome = try TemporaryHome()
            let laptop = try TemporaryHome()
            let phone = try TemporaryHome()
            let server = try ServerProcess(["--phase", "alpha"], environment: ["TOKENS_SERVER_DATABASE_URL": url])
            let address = server.baseURL.absoluteString
            for home in [laptop.url, phone.url] { try CLI.tokens(["init"], home) }
            try CLI.tokens(["add", "-"], laptop.url, input: CLI.github + "\n")
            try CLI.tokens(["sync", "init", "--server", address, "--name", "laptop"], laptop.url)
            let code = try CLI.tokens(["sync", "code"], laptop.url).stdout
            try CLI.tokens(["sync", "join", "--server", address, "--name", "phone\u{202E}"], phone.url, input: code)

            let table = try Self.admin(["accounts"], url, home: operatorHome.url).stdout
            #expect(table.hasPrefix("ACCOUNT") && table.contains("1 account;"), "\(table)")
            let listed = try Self.admin(["accounts", "--json"], url, home: operatorHome.url).stdout
            let document = try JSONSerialization.jsonObject(with: Data(listed.utf8)) as? [String: Any]
            let accounts = try #require(document?["accounts"] as? [[String: Any]], "\(listed)")
            #expect(accounts.count == 1 && accounts.first?["devices"] as? Int == 2 && accounts.first?["entries"] as? Int == 1)
            let id = try #require(accounts.first?["id"] as? String)
            let short = String(id.prefix(8))
            #expect(table.contains(short))

            // A device's name came from a client: escaped, never written to the terminal raw.
            let devices = try Self.admin(["devices", short], url, home: operatorHome.url).stdout
            #expect(devices.contains("laptop") && devices.contains("phone\\u{202E}") && !devices.contains("\u{202E}"), "\(devices)")
            #expect(try Self.admin(["devices", "ffff"], url, home: operatorHome.url, status: 1).stderr.contains("no account"))

            let revoked = try Self.admin(["revoke", short, "laptop"], url, home: operatorHome.url).stdout
            #expect(revoked.contains("revoked laptop"), "\(revoked)")
            #expect(try CLI.tokens(["sync"], laptop.url, status: 6).stderr.contains("revoked from sync"))
            let port = try #require(server.baseURL.port)
            #expect(server.stop() == .exited(0))
            // A stopping server writes when it last saw each device (else once a minute).
            let seen = try Self.admin(["devices", short, "--json"], url, home: operatorHome.url).stdout
            let seenDevices = (try JSONSerialization.jsonObject(with: Data(seen.utf8)) as? [String: Any])?["devices"] as? [[String: Any]]
            #expect(seenDevices?.count == 2 && seenDevices?.allSatisfy { $0["lastSeen"] is String } == true, "\(seen)")

            // Without --yes nothing is deleted; with it the account and all it stored are gone.
            let refused = try Self.admin(["delete-account", short], url, home: operatorHome.url, status: 64).stderr
            #expect(refused.contains("account \(short) (2 devices, 1 entry") && refused.contains("--yes"), "\(refused)")
            #expect(
                try Self.admin(["delete-account", short, "--yes"], url, home: operatorHome.url).stdout.contains("deleted account \(short)"))
            // The phone that stayed is told, by a server started again on the same address.
            let again = try ServerProcess(["--phase", "alpha"], environment: ["TOKENS_SERVER_DATABASE_URL": url], port: port)
            let told = try CLI.tokens(["sync"], phone.url, status: 6).stderr
            #expect(told.contains("the server does not know this machine"), "\(told)")
            #expect(again.stop() == .exited(0))
            let after = try Self.admin(["accounts", "--json"], url, home: operatorHome.url).stdout
            #expect(
                ((try JSONSerialization.jsonObject(with: Data(after.utf8)) as? [String: Any])?["accounts"] as? [Any])?.isEmpty == true,
                "\(after)")
        }
    }

    @Test("an account's own quota: shown, set in place of the server's (its next push is refused past it), given back to the server's")
    func quotaPerAccount() throws {
        try TestDatabase.with(prefix: "tokens_quota") { _, url in
            let operatorHome = try TemporaryHome()
            let laptop = try TemporaryHome()
            let server = try ServerProcess(["--phase", "alpha"], environment: ["TOKENS_SERVER_DATABASE_URL": url])
            try CLI.tokens(["init"], laptop.url)
            try CLI.tokens(["add", "-"], laptop.url, input: CLI.github + "\n")
            try CLI.tokens(["sync", "init", "--server", server.baseURL.absoluteString, "--name", "laptop"], laptop.url)
            let listed = try Self.admin(["accounts", "--json"], url, home: operatorHome.url).stdout
            let document = try JSONSerialization.jsonObject(with: Data(listed.utf8)) as? [String: Any]
            let id = try #require((document?["accounts"] as? [[String: Any]])?.first?["id"] as? String, "\(listed)")
            let short = String(id.prefix(8))

            let shown = try Self.admin(["quota", short], url, home: operatorHome.url).stdout
            #expect(shown.contains("entries (the server's)") && shown.contains("it holds 1 and"), "\(shown)")
            let set = try Self.admin(["quota", short, "--entries", "1"], url, home: operatorHome.url).stdout
            #expect(set.contains("may hold 1 entries and") && set.contains("MiB (the server's)"), "\(set)")
            #expect(try Self.admin(["accounts"], url, home: operatorHome.url).stdout.contains("1 entries, server's"))
            // Refused past it, with the server running: nothing sent, the user told why.
            try CLI.tokens(["add", "-"], laptop.url, input: CLI.bank + "\n")
            let refused = try CLI.tokens(["sync"], laptop.url, status: 6).stderr
            #expect(refused.contains("holds as much as it allows"), "\(refused)")
            let bad = try Self.admin(["quota", short, "--entries", "lots"], url, home: operatorHome.url, status: 64).stderr
            #expect(bad.contains("--entries takes a whole number"), "\(bad)")

            try Self.admin(["quota", short, "--entries", "default"], url, home: operatorHome.url)
            try CLI.tokens(["sync"], laptop.url)
            let json = try Self.admin(["quota", short, "--json"], url, home: operatorHome.url).stdout
            let quota = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
            #expect(quota?["entriesSet"] as? Bool == false && quota?["bytesSet"] as? Bool == false, "\(json)")
            #expect(server.stop() == .exited(0))
        }
    }

    @Test("with server.signup invitation, a sync account opens only with an operator's invitation, once; joining needs none")
    func invitations() throws {
        try TestDatabase.with(prefix: "tokens_invite") { _, url in
            let operatorHome = try TemporaryHome()
            let laptop = try TemporaryHome()
            let desktop = try TemporaryHome()
            let stranger = try TemporaryHome()
            let server = try ServerProcess(
                ["--phase", "alpha"], environment: ["TOKENS_SERVER_DATABASE_URL": url, "TOKENS_SERVER_SIGNUP": "invitation"])
            let address = server.baseURL.absoluteString
            for home in [laptop.url, desktop.url, stranger.url] { try CLI.tokens(["init"], home) }
            let refused = try CLI.tokens(["sync", "init", "--server", address, "--name", "laptop"], laptop.url, status: 6).stderr
            #expect(refused.contains("only with an invitation"), "\(refused)")

            let printed = try Self.admin(["invite", "--days", "2"], url, home: operatorHome.url).stdout
            let invitation = String(printed.split(separator: "\n").first ?? "")
            #expect(invitation.count == 44 && printed.contains("single-use, valid until"), "\(printed)")
            try CLI.tokens(["sync", "init", "--server", address, "--name", "laptop", "--invite"], laptop.url, input: invitation + "\n")
            // Used: nobody else opens an account with it; joining the account needs only its code.
            let used = try CLI.tokens(
                ["sync", "init", "--server", address, "--name", "stranger", "--invite"], stranger.url, input: invitation + "\n", status: 6
            ).stderr
            #expect(used.contains("refused the invitation"), "\(used)")
            let code = try CLI.tokens(["sync", "code"], laptop.url).stdout
            try CLI.tokens(["sync", "join", "--server", address, "--name", "desktop"], desktop.url, input: code)
            #expect(!server.errorLog.contains(invitation))
            #expect(server.stop() == .exited(0))
        }
    }

    @Test("DEV has no database to administer: one line, usage status")
    func devRefused() throws {
        let home = try TemporaryHome()
        let result = try ProcessRunner.run(
            ServerProcess.binary, ["--phase", "dev", "admin", "accounts"], environment: TokensProcess.environment(home: home.url))
        #expect(result.status == 64 && result.stderr.contains("admin needs --phase alpha or real"), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
    }
}
