import AppComposition
import AppConfiguration
import Domain
import Foundation
import Testing

@testable import tokens

/// A Clock fixed at one moment.
struct StoppedClock: WallClock {
    let date: Date
    func now() -> Date { date }
}

@Suite("Composition root and command-line helpers")
struct CompositionTests {
    static func settings(_ phase: Phase, _ source: SettingSource = .default) -> AppSettings {
        AppSettings(
            phase: Sourced(phase, from: source), logLevel: Sourced(.info, from: .default), configFile: "/x",
            configFileExists: false)
    }

    @Test("DEV builds a working graph over the demo accounts")
    func devGraph() async throws {
        let container = try AppComposer.makeContainer(
            for: Self.settings(.dev), clock: StoppedClock(date: Date(timeIntervalSince1970: 59)),
            asking: {
                Issue.record("DEV must not ask for a passphrase")
                return Passphrase("unused")
            })
        #expect(container.phase == .dev)
        let accounts = try await container.makeListAccountsUseCase().execute()
        #expect(Set(accounts.map(\.issuer)) == ["Google", "GitHub", "Amazon", "Example Bank", "Steam"])
        #expect(accounts.first?.issuer == "Google")  // the favourite
        let github = try #require(try await container.makeSearchAccountsUseCase().execute(query: "github").first)
        #expect(container.makeGenerateCodesUseCase().execute(for: github, at: container.clock.now()).code == "287082")
    }

    @Test("opening a vault makes the process non-dumpable: no core dump, no debugger of the same user")
    func nonDumpableOnceUnlocked() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hardening-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let settings = AppSettings(
            phase: Sourced(.alpha, from: .flag("--phase")), logLevel: Sourced(.info, from: .default),
            vaultPath: Sourced(folder.appendingPathComponent("vault.sqlite").path, from: .default), configFile: "/x",
            configFileExists: false)
        _ = try AppComposer.createVault(for: settings, passphrase: Passphrase("correct horse battery staple"))
        let container = try AppComposer.makeContainer(for: settings, asking: { Passphrase("correct horse battery staple") })
        #expect(!ProcessHardening.isDumpable)
        try container.close()
    }

    @Test("ALPHA and REAL without a vault: a clear error before any passphrase is asked, never DEV in disguise",
          arguments: [Phase.alpha, .real])
    func missingVault(phase: Phase) throws {
        let settings = AppSettings(
            phase: Sourced(phase, from: .flag("--phase")), logLevel: Sourced(.info, from: .default),
            vaultPath: Sourced("/nonexistent/vault.sqlite", from: .default), configFile: "/x", configFileExists: false)
        let error = #expect(throws: (any Error).self) {
            try AppComposer.makeContainer(
                for: settings,
                asking: {
                    Issue.record("asked for a passphrase with no vault")
                    return Passphrase("unused")
                })
        }
        // Data names what is missing; the command line says what to type about it.
        #expect(String(describing: error!) == "no vault at /nonexistent/vault.sqlite")
        #expect(FailureText.sentence(for: error!) == "no vault at /nonexistent/vault.sqlite: create one with `tokens init`")
    }

    @Test("a query selects one account; exact issuer beats partial; none and several are errors")
    func selection() throws {
        let make = { (issuer: String) in
            Account(
                id: UUID(), issuer: issuer, name: "n", secret: Secret(bytes: [1]), kind: .totp(period: 30),
                createdAt: Date(timeIntervalSince1970: 0), updatedAt: Date(timeIntervalSince1970: 0))
        }
        let google = make("Google")
        let cloud = make("Google Cloud")
        #expect(try AccountSelection.select("google", in: [google, cloud]).id == google.id)
        #expect(try AccountSelection.select("cloud", in: [cloud]).id == cloud.id)
        #expect(throws: CLIError.self) { try AccountSelection.select("x", in: []) }
        #expect(throws: CLIError.self) { try AccountSelection.select("goo", in: [cloud, make("Goodreads")]) }
    }
}
