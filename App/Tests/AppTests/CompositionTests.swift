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

    @Test("the allocator takes the one-shot set-up: large blocks from the heap, kept for reuse")
    func largeBlocksOnHeap() {
        #expect(ProcessMemory.keepLargeBlocksOnHeap())
    }

    @Test(
        "ALPHA and REAL without a vault: a clear error before any passphrase is asked, never DEV in disguise",
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
        #expect(
            FailureText.sentence(for: error!)
                == "no vault at /nonexistent/vault.sqlite: create one with `tokens \(phase == .real ? "" : "--phase alpha ")init`")
    }

    @Test("the command line's query goes through the container's SelectAccount: a name, an id, or a refusal")
    func selection() async throws {
        let container = try AppComposer.makeContainer(for: Self.settings(.dev), clock: StoppedClock(date: Date(timeIntervalSince1970: 59)))
        let github = try await container.makeSelectAccountUseCase().execute(query: "github")
        #expect(github.issuer == "GitHub")
        #expect(try await container.makeSelectAccountUseCase().execute(query: github.id.uuidString.lowercased()).id == github.id)
        // The demo accounts' ids share their first digits: a prefix of those names all five.
        await #expect {
            try await container.makeSelectAccountUseCase().execute(query: String(github.shortID.prefix(5)))
        } throws: { error in
            guard case .ambiguous(_, let candidates) = error as? AccountSelectionError else { return false }
            return candidates.count == 5
        }
        await #expect(throws: AccountSelectionError.noMatch(query: "nothing here")) {
            try await container.makeSelectAccountUseCase().execute(query: "nothing here")
        }
    }
}
