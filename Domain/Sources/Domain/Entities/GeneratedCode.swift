import Foundation

/// A code ready to show for one account at one moment.
public struct GeneratedCode: Hashable, Sendable {
    public let accountID: UUID
    /// The current code; nil for a counter-based account whose code is made only on request.
    public let code: String?
    /// Seconds until `code` expires; nil for counter-based accounts.
    public let secondsRemaining: Int?
    /// The time step length in seconds; nil for counter-based accounts.
    public let period: Int?
    /// The code of the following time step; nil for counter-based accounts.
    public let nextCode: String?
    /// The counter `code` was made with, for counter-based accounts.
    public let counter: UInt64?

    public init(
        accountID: UUID,
        code: String?,
        secondsRemaining: Int?,
        period: Int?,
        nextCode: String?,
        counter: UInt64? = nil
    ) {
        self.accountID = accountID
        self.code = code
        self.secondsRemaining = secondsRemaining
        self.period = period
        self.nextCode = nextCode
        self.counter = counter
    }
}

extension GeneratedCode {
    /// A time-based account's codes at `date`: `code` for its time step, `nextCode` for the next.
    public init(account: Account, at date: Date, code: String, nextCode: String) {
        let period = account.kind.period ?? OTPKind.defaultPeriod
        self.init(
            accountID: account.id, code: code, secondsRemaining: OTPGenerator.secondsRemaining(at: date, period: period),
            period: period, nextCode: nextCode)
    }

    /// A counter-based account before its code is asked for: no code, its counter.
    public init(waitingForRequest account: Account) {
        self.init(
            accountID: account.id, code: nil, secondsRemaining: nil, period: nil, nextCode: nil, counter: account.counter)
    }
}
