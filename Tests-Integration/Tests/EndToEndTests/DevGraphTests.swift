import AppComposition
import AppConfiguration
import Domain
import Foundation
import IntegrationTestSupport
import Presentation
import Testing

/// The DEV graph exactly as App composes it, exercised through its use cases and view model.
@Suite("DEV phase, wired by App")
struct DevGraphTests {
    let clock = SettableClock(unix: 59)

    func container() throws -> any AppContainer {
        let settings = AppSettings(
            phase: Sourced(.dev, from: .flag("--phase")), logLevel: Sourced(.info, from: .default),
            configFile: "/nonexistent", configFileExists: false)
        return try AppComposer.makeContainer(for: settings, clock: clock)
    }

    @Test("RFC 6238 vectors through AddAccount, GenerateCodes, the real HMAC and a fixed clock", arguments: RFC6238.vectors)
    func rfc6238(vector: RFC6238.Vector) async throws {
        let container = try container()
        // The demo accounts hold two of these secrets: twins, added on purpose.
        let account = try await container.makeAddAccountUseCase().execute(
            KeyURI.parse(vector.uri), note: "", groups: [], allowDuplicate: true)
        clock.set(unix: TimeInterval(vector.time))
        #expect(container.makeGenerateCodesUseCase().execute(for: account, at: container.clock.now()).code == vector.code)
    }

    @Test("add → list → code round trip")
    func roundTrip() async throws {
        let container = try container()
        let before = try await container.makeListAccountsUseCase().execute()
        // The demo's GitHub account has this secret too: a twin, added on purpose.
        let added = try await container.makeAddAccountUseCase().execute(
            KeyURI.parse("otpauth://totp/Round%20Trip:me?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&issuer=Round%20Trip"),
            note: "", groups: [], allowDuplicate: true)
        let after = try await container.makeListAccountsUseCase().execute()
        #expect(after.count == before.count + 1)
        let found = try await container.makeSearchAccountsUseCase().execute(query: "round trip")
        #expect(found.map(\.id) == [added.id])
        #expect(container.makeGenerateCodesUseCase().execute(for: found[0], at: clock.now()).code == "287082")
    }

    @Test("the list view model shows the demo accounts with live codes")
    @MainActor
    func viewModel() async throws {
        let screens = ScreenContainer(container: try container(), lock: AlwaysUnlocked(), clipboard: UnusedClipboard())
        let viewModel = screens.makeAccountListViewModel(actions: .init())
        await viewModel.load()
        let rows = try #require(viewModel.state.value)
        let github = try #require(rows.first { $0.issuer == "GitHub" })
        #expect(github.display == .timed(code: "287 082", nextCode: "359 152", secondsLeft: 1, period: 30))
    }

    @Test("HOTP codes advance through the in-memory store")
    func hotp() async throws {
        let container = try container()
        let hotp = try #require(try await container.makeListAccountsUseCase().execute().first { $0.counter != nil })
        let current = container.makeCurrentCodeUseCase()
        #expect(try await current.execute(for: hotp, at: container.clock.now()).code == "755224")
        #expect(try await current.execute(for: hotp, at: container.clock.now()).code == "287082")
    }
}

/// The list view model needs a clipboard; these tests copy nothing.
@MainActor
private final class UnusedClipboard: Clipboard {
    func copy(_ text: String) {}
    func clear() {}
}
