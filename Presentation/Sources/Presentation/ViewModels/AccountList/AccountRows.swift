import Domain
import Foundation

/// Turns accounts and their codes into rows: grouped codes and countdowns, the next code near the
/// end of a period, and an HOTP code once it was asked for.
struct AccountRows {
    /// Show the next code during this many last seconds of a period.
    let nextCodeWindow: Int

    func row(for account: Account, code: GeneratedCode, requested: GeneratedCode?) -> AccountRowViewModel {
        let display: AccountRowViewModel.CodeDisplay
        if let current = code.code, let next = code.nextCode, let seconds = code.secondsRemaining, let period = code.period {
            display = .timed(
                code: CodeFormatter.grouped(current), nextCode: CodeFormatter.grouped(next), secondsLeft: seconds,
                period: period)
        } else if let requested, let value = requested.code, let counter = requested.counter {
            display = .generated(code: CodeFormatter.grouped(value), counter: counter)
        } else {
            display = .onRequest(counter: account.counter ?? 0)
        }
        let upcoming: String? =
            if case .timed(_, let next, let seconds, _) = display, seconds <= nextCodeWindow { next } else { nil }
        return row(for: account, display: display, upcoming: upcoming)
    }

    /// The row of an account the screen does not show: no code made.
    func offScreenRow(for account: Account) -> AccountRowViewModel {
        row(for: account, display: .offScreen, upcoming: nil)
    }

    private func row(for account: Account, display: AccountRowViewModel.CodeDisplay, upcoming: String?) -> AccountRowViewModel {
        AccountRowViewModel(
            id: account.id, issuer: account.issuer, accountName: account.name, isFavorite: account.isFavorite,
            display: display, upcoming: upcoming, group: account.groups.first)
    }
}
