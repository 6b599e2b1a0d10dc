import AppComposition
import AppConfiguration
import DataLayer
import DataTestSupport
import Domain
import Foundation
import Testing

@testable import tokens

/// The composition root with `tokens unlock`'s kept key: opened without asking while kept,
/// asked again after lock, never used when unlock.timeout is 0, and a keyring that cannot be
/// used is said in one line before asking.
@Suite("Unlocking once (composition)")
struct KeptUnlockTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kept-\(UUID())")
    let keyring = InMemoryKeyring()

    func settings(unlockSeconds: Int = 900) -> AppSettings {
        AppSettings(
            phase: Sourced(.alpha, from: .flag("--phase")), logLevel: Sourced(.info, from: .default),
            vaultPath: Sourced(folder.appendingPathComponent("vault.sqlite").path, from: .default),
            unlockSeconds: Sourced(unlockSeconds, from: .default), configFile: "/x", configFileExists: false)
    }

    init() throws {
        _ = try AppComposer.createVault(for: settings(), passphrase: Passphrase("correct horse battery staple"))
    }

    /// Opens the vault as a command does: whether the passphrase was asked, and the notices.
    func open(_ settings: AppSettings, kept: KeptUnlock?) throws -> (asked: Bool, notices: [String]) {
        var asked = false
        var notices: [String] = []
        let container = try AppComposer.makeContainer(
            for: settings, kept: kept, notice: { notices.append($0) },
            asking: {
                asked = true
                return Passphrase("correct horse battery staple")
            })
        try container.close()
        return (asked, notices)
    }

    @Test("unlock, then the vault opens without asking; lock, and it asks again")
    func unlockThenLock() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let kept = try #require(KeptUnlock(settings: settings(), keyring: keyring))
        #expect(try open(settings(), kept: kept).asked)
        let expiry = try kept.unlock(passphrase: Passphrase("correct horse battery staple"), seconds: 600)
        #expect(try kept.expiry() == expiry)
        #expect(try !open(settings(), kept: kept).asked)
        #expect(try kept.lock())
        #expect(try kept.expiry() == nil)
        #expect(try open(settings(), kept: kept).asked)
    }

    @Test("a wrong passphrase keeps nothing")
    func wrongPassphrase() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let kept = try #require(KeptUnlock(settings: settings(), keyring: keyring))
        #expect(throws: VaultError.wrongPassphrase) { try kept.unlock(passphrase: Passphrase("wrong"), seconds: 600) }
        #expect(keyring.names.isEmpty)
    }

    @Test("unlock.timeout = 0: a key kept before is not used, and every command asks")
    func turnedOff() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let kept = try #require(KeptUnlock(settings: settings(), keyring: keyring))
        _ = try kept.unlock(passphrase: Passphrase("correct horse battery staple"), seconds: 600)
        let off = settings(unlockSeconds: 0)
        #expect(KeptUnlock.enabled(for: off) == nil)
        #expect(try open(off, kept: KeptUnlock.enabled(for: off)).asked)
        #expect(try #require(KeptUnlock(settings: off, keyring: keyring)).isEnabled == false)
    }

    @Test("a keyring that cannot be used: one line, then the passphrase is asked; nothing fails")
    func unavailable() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        keyring.makeUnavailable()
        let kept = try #require(KeptUnlock(settings: settings(), keyring: keyring))
        let opened = try open(settings(), kept: kept)
        #expect(opened.asked)
        #expect(opened.notices == ["notice: the kernel keyring is unavailable here (operation not permitted); asking for the passphrase"])
        #expect(throws: VaultKeyringError.self) { try kept.unlock(passphrase: Passphrase("correct horse battery staple"), seconds: 60) }
    }

    @Test("DEV has no vault to unlock")
    func dev() {
        #expect(KeptUnlock(settings: CompositionTests.settings(.dev), keyring: keyring) == nil)
    }

    @Test(
        "durations as typed and as shown",
        arguments: [
            ("90", 90), ("90s", 90), ("15m", 900), ("2h", 7_200), ("1h30m", 5_400), ("1h30", nil), ("", nil), ("m", nil),
            ("15 m", nil), ("-5m", nil), ("99999999999999999999h", nil),
        ] as [(String, Int?)])
    func durations(text: String, seconds: Int?) {
        #expect(DurationText.seconds(text) == seconds)
    }

    @Test("durations shown")
    func durationText() {
        #expect(DurationText.text(seconds: 900) == "15m")
        #expect(DurationText.text(seconds: 5_430) == "1h 30m 30s")
        #expect(DurationText.text(seconds: 0) == "0s")
    }
}
