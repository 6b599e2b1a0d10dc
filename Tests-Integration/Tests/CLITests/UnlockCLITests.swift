import Foundation
import IntegrationTestSupport
import Testing

/// `tokens unlock` and `tokens lock` through the binary, with the kernel keyring: no
/// passphrase while unlocked, asked again after lock, expiry, passwd or in another vault,
/// and where the keyring's system calls are blocked. No passphrase in the environment and
/// no terminal: a command that needs one fails with "no passphrase", which is how "asks"
/// shows here.
@Suite("Unlock once (the kernel keyring)")
struct UnlockCLITests {
    static let asks = "tokens: no passphrase: run in a terminal, or use --passphrase-file or TOKENS_PASSPHRASE"

    /// A REAL vault with one account, in a fresh home.
    static func vault(phase: String = "real") throws -> TemporaryHome {
        let home = try TemporaryHome()
        _ = try TokensProcess.run(["init", "--phase", phase], home: home.url, environment: Vaults.environment())
        let added = try TokensProcess.run(
            ["add", RFC6238.vectors[0].uri, "--phase", phase], home: home.url, environment: Vaults.environment())
        #expect(added.status == 0, "\(added.stderr)")
        return home
    }

    /// `tokens code` of the vault's account, with no passphrase unless `environment` gives one.
    static func code(_ home: borrowing TemporaryHome, phase: String = "real", environment: [String: String] = [:]) throws -> ProcessResult {
        try TokensProcess.run(
            ["code", "rfc6238", "--at", String(RFC6238.vectors[0].time), "--phase", phase], home: home.url, environment: environment)
    }

    @Test("unlock → code and list without a passphrase → lock → asked again")
    func unlockThenLock() throws {
        let home = try Self.vault()
        defer { _ = try? TokensProcess.run(["lock"], home: home.url) }
        let before = try TokensProcess.run(["unlock", "--status"], home: home.url)
        #expect(before.stdout == "locked: commands ask for the REAL vault's passphrase\n")
        #expect(try Self.code(home).errorLines.last.map(String.init) == Self.asks)

        let unlocked = try TokensProcess.run(["unlock", "--for", "10m"], home: home.url, environment: Vaults.environment())
        #expect(unlocked.status == 0, "\(unlocked.stderr)")
        #expect(unlocked.stdout.hasPrefix("Unlocked the REAL vault for 10m"))
        let code = try Self.code(home)
        #expect(code.status == 0 && code.stdout == RFC6238.vectors[0].code + "\n", "\(code.stderr)")
        #expect(try TokensProcess.run(["list", "--json"], home: home.url).stdout.contains("RFC6238"))
        let status = try TokensProcess.run(["unlock", "--status"], home: home.url)
        #expect(status.stdout.hasPrefix("unlocked: the REAL vault opens without its passphrase for 9m"), "\(status.stdout)")

        #expect(try TokensProcess.run(["lock"], home: home.url).stdout == "Locked the REAL vault: its key is gone from the keyring\n")
        let after = try Self.code(home)
        #expect(after.status != 0 && after.errorLines.last.map(String.init) == Self.asks)
        #expect(try TokensProcess.run(["lock"], home: home.url).stdout == "The REAL vault was not unlocked\n")
    }

    @Test("the key expires: after --for 1s, commands ask again")
    func expires() throws {
        let home = try Self.vault()
        let unlocked = try TokensProcess.run(["unlock", "--for", "1s"], home: home.url, environment: Vaults.environment())
        #expect(unlocked.status == 0, "\(unlocked.stderr)")
        // The kernel counts whole seconds: two are always past a one-second timeout.
        Thread.sleep(forTimeInterval: 2.2)
        #expect(try Self.code(home).errorLines.last.map(String.init) == Self.asks)
        #expect(try TokensProcess.run(["unlock", "--status"], home: home.url).stdout.hasPrefix("locked"))
    }

    @Test("one vault's key opens no other: the ALPHA vault and another home's vault still ask")
    func otherVaults() throws {
        let home = try Self.vault()
        defer { _ = try? TokensProcess.run(["lock"], home: home.url) }
        _ = try TokensProcess.run(["init", "--phase", "alpha"], home: home.url, environment: Vaults.environment())
        let other = try Self.vault()
        #expect(try TokensProcess.run(["unlock"], home: home.url, environment: Vaults.environment()).status == 0)
        #expect(try Self.code(home).status == 0)
        #expect(try TokensProcess.run(["list", "--phase", "alpha"], home: home.url).errorLines.last.map(String.init) == Self.asks)
        #expect(try Self.code(other).errorLines.last.map(String.init) == Self.asks)
    }

    @Test("passwd asks for the current passphrase even while unlocked, and the old key opens nothing after it")
    func afterPasswd() throws {
        let home = try Self.vault()
        defer { _ = try? TokensProcess.run(["lock"], home: home.url) }
        #expect(try TokensProcess.run(["unlock"], home: home.url, environment: Vaults.environment()).status == 0)
        let unasked = try TokensProcess.run(["passwd"], home: home.url, environment: ["TOKENS_NEW_PASSPHRASE": "a new passphrase"])
        #expect(unasked.status != 0 && unasked.errorLines.last.map(String.init) == Self.asks)

        // The key kept before passwd, kept again over the vault as it was: once the vault's
        // key rotates, that key is refused and dropped.
        let changed = try TokensProcess.run(
            ["passwd"], home: home.url, environment: Vaults.environment().merging(["TOKENS_NEW_PASSPHRASE": "a new passphrase"]) { $1 })
        #expect(changed.status == 0, "\(changed.stderr)")
        #expect(try Self.code(home).errorLines.last.map(String.init) == Self.asks)
        #expect(try TokensProcess.run(["unlock", "--status"], home: home.url).stdout.hasPrefix("locked"))
        let new = try TokensProcess.run(["unlock"], home: home.url, environment: Vaults.environment("a new passphrase"))
        #expect(new.status == 0)
        #expect(try Self.code(home).status == 0)
    }

    @Test("a key left from before the vault's key rotated is refused and dropped, not only forgotten by passwd")
    func staleKeyRefused() throws {
        let home = try Self.vault()
        defer { _ = try? TokensProcess.run(["lock"], home: home.url) }
        let vault = Vaults.path(phase: "real", home: home.url)
        let copy = home.url.appendingPathComponent("before-passwd.sqlite")
        try FileManager.default.copyItem(at: vault, to: copy)
        _ = try TokensProcess.run(
            ["passwd"], home: home.url, environment: Vaults.environment().merging(["TOKENS_NEW_PASSPHRASE": "a new passphrase"]) { $1 })
        // Kept for the new key; then the vault file goes back to its copy from before passwd.
        #expect(try TokensProcess.run(["unlock"], home: home.url, environment: Vaults.environment("a new passphrase")).status == 0)
        try FileManager.default.removeItem(at: vault)
        try FileManager.default.copyItem(at: copy, to: vault)
        #expect(try Self.code(home).errorLines.last.map(String.init) == Self.asks)
        #expect(try TokensProcess.run(["lock"], home: home.url).stdout == "The REAL vault was not unlocked\n")
        #expect(try Self.code(home, environment: Vaults.environment()).status == 0)
    }

    @Test("where the keyring's system calls are blocked: unlock says so in one line, commands still work by passphrase")
    func keyringBlocked() throws {
        let home = try Self.vault()
        let url = home.url
        let blocked = { (arguments: [String], environment: [String: String]) throws -> ProcessResult in
            try ProcessRunner.run(
                FaultInjectors.noKeyring, [TokensProcess.binary] + arguments,
                environment: TokensProcess.environment(home: url, extra: environment))
        }
        let unlock = try blocked(["unlock"], Vaults.environment())
        #expect(unlock.status == 0)
        #expect(
            unlock.errorLines == [
                "tokens: notice: the kernel keyring is unavailable here (operation not permitted); commands will go on asking for the passphrase"
            ])
        let code = try blocked(["code", "rfc6238", "--at", String(RFC6238.vectors[0].time)], Vaults.environment())
        #expect(code.status == 0 && code.stdout == RFC6238.vectors[0].code + "\n" && code.stderr.isEmpty, "\(code.stderr)")
        let asked = try blocked(["list"], [:])
        #expect(
            asked.errorLines.map(String.init) == [
                "tokens: notice: the kernel keyring is unavailable here (operation not permitted); asking for the passphrase", Self.asks,
            ])
        #expect(
            try blocked(["unlock", "--status"], [:]).stdout == "locked: the kernel keyring is unavailable here (operation not permitted)\n")
        #expect(try blocked(["lock"], [:]).status == 0)
    }

    @Test("unlock.timeout = 0: unlock is refused in one line, and a key kept before is not used")
    func turnedOff() throws {
        let home = try Self.vault()
        defer { _ = try? TokensProcess.run(["lock"], home: home.url) }
        #expect(try TokensProcess.run(["unlock"], home: home.url, environment: Vaults.environment()).status == 0)
        let off = ["TOKENS_UNLOCK_TIMEOUT": "0"]
        let refused = try TokensProcess.run(["unlock"], home: home.url, environment: Vaults.environment().merging(off) { $1 })
        #expect(refused.status == 1)
        #expect(
            refused.errorLines == [
                "tokens: unlocking is turned off (unlock.timeout is 0, from environment TOKENS_UNLOCK_TIMEOUT): every command asks for the passphrase"
            ])
        let code = try TokensProcess.run(["code", "rfc6238"], home: home.url, environment: off)
        #expect(code.errorLines.last.map(String.init) == Self.asks)
    }
}
