import Domain
import Foundation
import Presentation
import PresentationTestSupport
import Synchronization
import Testing

/// A long list makes codes only for the rows the screen shows and a screenful either side: the
/// first frame of 10 000 accounts costs a screenful of codes, not 10 000.
@MainActor
@Suite("Account list: codes for the rows shown")
struct AccountListWindowTests {
    let clock = TestClock(start: Date(timeIntervalSince1970: 59))
    let search = TestSearchAccountsUseCase((1...1_000).map { Account.row($0, issuer: "Issuer \($0)") })
    let generator = RecordingGenerateCodes()

    func makeViewModel(firstRows: Int = 200) -> AccountListViewModel {
        AccountListViewModel(
            reading: .init(search: search, generateCodes: generator, currentCode: TestCurrentCodeUseCase(counters: [:])),
            editing: .init(
                update: TestUpdateAccountUseCase(search: search), delete: TestDeleteAccountUseCase(search: search),
                add: TestAddAccountUseCase(search: search), move: TestMoveAccountUseCase(search: search)),
            clipboard: TestClipboard(), wallClock: clock.wallClock, scheduler: clock,
            options: .init(firstRows: firstRows))
    }

    /// The indices of the rows that have a code.
    static func withCodes(_ viewModel: AccountListViewModel) -> [Int] {
        (viewModel.state.value ?? []).indices.filter { viewModel.state.value?[$0].code != nil }
    }

    @Test("the first load makes codes for the first rows alone; every row is there, the rest off screen")
    func firstLoad() async {
        let viewModel = makeViewModel()
        await viewModel.load()
        #expect(viewModel.state.value?.count == 1_000)
        #expect(Self.withCodes(viewModel) == Array(0..<200))
        #expect(generator.sizes == [200])
        #expect(viewModel.state.value?[200].display == .offScreen && viewModel.state.value?[200].issuer == "Issuer 201")
    }

    @Test("rows shown get their codes at once, with a screenful either side; rows shown already cost nothing more")
    func scrolling() async {
        let viewModel = makeViewModel()
        await viewModel.load()
        viewModel.showRows(500..<520)
        #expect(Self.withCodes(viewModel) == Array(480..<540))
        #expect(viewModel.state.value?[510].display == .timed(code: "000 001", nextCode: "000 002", secondsLeft: 1, period: 30))
        viewModel.showRows(505..<525)
        #expect(generator.sizes == [200, 60], "every row shown had its code: nothing made")
        viewModel.refreshCodes()
        #expect(Self.withCodes(viewModel) == Array(485..<545))
        viewModel.showRows(0..<0)
        viewModel.refreshCodes()
        #expect(Self.withCodes(viewModel) == Array(485..<545), "a screen showing no row leaves the window as it was")
    }

    @Test("copying the code of a row off screen makes its code first")
    func copiesOffScreen() async throws {
        let viewModel = makeViewModel(firstRows: 10)
        await viewModel.load()
        let row = try #require(viewModel.state.value?[900])
        #expect(row.display == .offScreen)
        await viewModel.copyCode(for: row.id)
        #expect(viewModel.notice?.hasPrefix("Copied") == true, "\(viewModel.notice ?? "no notice")")
        #expect(viewModel.state.value?[900].code == "000 001")
    }

    @Test("a list shorter than the first rows has every code, as before")
    func shortList() async {
        let short = TestSearchAccountsUseCase((1...5).map { Account.row($0, issuer: "Issuer \($0)") })
        let viewModel = AccountListViewModel(
            reading: .init(search: short, generateCodes: generator, currentCode: TestCurrentCodeUseCase(counters: [:])),
            editing: .init(
                update: TestUpdateAccountUseCase(search: short), delete: TestDeleteAccountUseCase(search: short),
                add: TestAddAccountUseCase(search: short), move: TestMoveAccountUseCase(search: short)),
            clipboard: TestClipboard(), wallClock: clock.wallClock, scheduler: clock)
        await viewModel.load()
        #expect(Self.withCodes(viewModel) == Array(0..<5))
    }
}

/// Domain's GenerateCodes over CounterEchoHMAC, recording how many accounts each call was given.
final class RecordingGenerateCodes: GenerateCodesUseCase {
    private let generator = DefaultGenerateCodesUseCase(hmac: CounterEchoHMAC())
    private let calls = Mutex<[Int]>([])

    /// The number of accounts of every call, in order.
    var sizes: [Int] { calls.withLock { $0 } }

    func execute(for accounts: [Account], at date: Date) -> [GeneratedCode] {
        calls.withLock { $0.append(accounts.count) }
        return generator.execute(for: accounts, at: date)
    }
}
