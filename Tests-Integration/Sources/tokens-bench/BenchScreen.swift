import AppComposition
import Domain
import Foundation
import Presentation
import TerminalUI

/// The interactive screen's figures: search per keystroke and one frame, through the screen's
/// own factory.
extension Bench {
    /// 3. Search over 10 000 accounts, per keystroke.
    static func search() async throws -> [Result] {
        let accounts = (0..<10_000).map { number in
            Account(
                id: UUID(), issuer: "Issuer \(number) Çà", name: "user\(number)@example.com", secret: Secret(bytes: [1, 2, 3]),
                kind: .totp(period: 30), note: number % 7 == 0 ? "note \(number)" : "", createdAt: Date(timeIntervalSince1970: 0),
                updatedAt: Date(timeIntervalSince1970: 0))
        }
        let container = DevContainer()
        try await container.accountRepository.add(contentsOf: accounts)
        // The search the screen's list view model is made with.
        let search = container.makeIndexedSearchAccountsUseCase()
        var samples: [Double] = []
        let typed = "issuer 9999 ca"
        for length in 1...typed.count {
            let query = String(typed.prefix(length))
            for _ in 0..<10 {
                samples.append(try await Measure.asyncSeconds { _ = try await search.execute(query: query) })
            }
        }
        let p50 = Measure.percentile(samples, 0.5) * 1000
        let p99 = Measure.percentile(samples, 0.99) * 1000
        return [
            Result(
                name: "search 10 000 accounts, per keystroke, p50", value: p50, unit: "ms", comparedTo: nil, reference: nil, goal: "-",
                met: nil),
            Result(
                name: "search 10 000 accounts, per keystroke, p99", value: p99, unit: "ms", comparedTo: nil, reference: nil, goal: "< 2 ms",
                met: p99 < 2),
        ]
    }

    /// 4. One frame of the list screen with 1 000 accounts: refresh the codes, render the text.
    /// The screen draws a frame a second; most fall inside a time step (codes reused). The first
    /// frame of a period is measured on its own: a clock one second further each frame, 60 periods.
    @MainActor
    static func frames() async throws -> [Result] {
        let typical = try await frameSamples(clock: nil, frames: 200) { true }
        let clock = SteppingClock(step: 1)
        let boundary = try await frameSamples(clock: clock, frames: 60 * 30) { clock.lastReading % 30 == 0 }
        let typicalMedian = Measure.percentile(typical, 0.5) * 1000
        let boundaryMedian = Measure.percentile(boundary, 0.5) * 1000
        return [
            Result(
                name: "one list frame, 1 000 accounts (codes + render), median", value: typicalMedian, unit: "ms",
                comparedTo: nil, reference: nil, goal: "< 1 ms", met: typicalMedian < 1),
            Result(
                name: "one list frame as a period starts (1 000 codes turn), median of 60", value: boundaryMedian,
                unit: "ms", comparedTo: nil, reference: nil, goal: "< 1 ms", met: boundaryMedian < 1),
        ]
    }

    /// The times of the frames `keep` selects (asked after each frame).
    @MainActor
    static func frameSamples(clock: (any WallClock)?, frames: Int, keep: () -> Bool) async throws -> [Double] {
        let container = DevContainer(clock: clock)
        let accounts = (0..<1000).map { number in
            Account(
                id: UUID(), issuer: "Issuer \(number)", name: "user\(number)", secret: Secret(bytes: Array("12345678901234567890".utf8)),
                kind: .totp(period: 30), createdAt: Date(timeIntervalSince1970: 0), updatedAt: Date(timeIntervalSince1970: 0))
        }
        try await container.accountRepository.add(contentsOf: accounts)
        let screens = ScreenContainer(container: container, lock: AlwaysUnlocked(), clipboard: NoClipboard())
        let viewModel = screens.makeAccountListViewModel(actions: .init())
        await viewModel.load()
        let view = AccountListView(style: Style(colors: true))
        var samples: [Double] = []
        for _ in 0..<frames {
            let elapsed = Measure.seconds {
                viewModel.refreshCodes()
                _ = view.render(state: viewModel.state, query: "", chrome: .init(selectedIndex: 0), width: 120, height: 50)
            }
            if keep() { samples.append(elapsed) }
        }
        return samples
    }
}

/// The bench copies nothing.
@MainActor
private final class NoClipboard: Clipboard {
    func copy(_ text: String) {}
    func clear() {}
}
