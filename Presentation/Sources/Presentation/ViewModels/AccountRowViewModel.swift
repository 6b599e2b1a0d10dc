import Foundation

/// One row of the account list, display-ready: every string is what the view shows.
public struct AccountRowViewModel: Identifiable, Hashable, Sendable {
    /// What the code column shows.
    public enum CodeDisplay: Hashable, Sendable {
        /// A time-based code with its countdown.
        case timed(code: String, nextCode: String, secondsLeft: Int, period: Int)
        /// A counter-based code not generated yet.
        case onRequest(counter: UInt64)
        /// A counter-based code the user just generated.
        case generated(code: String, counter: UInt64)
        /// A row the screen does not show: its code is made once it comes into view
        /// (`AccountListViewModel.showRows`), so a long list costs what a screenful costs.
        case offScreen
    }

    public let id: UUID
    public let issuer: String
    public let accountName: String
    public let isFavorite: Bool
    public let display: CodeDisplay
    /// The next code, shown only in the last seconds of a period (nil otherwise).
    public let upcoming: String?
    /// The account's first group, for the list's headings.
    public let group: String?

    public init(
        id: UUID, issuer: String, accountName: String, isFavorite: Bool, display: CodeDisplay, upcoming: String? = nil,
        group: String? = nil
    ) {
        self.id = id
        self.issuer = issuer
        self.accountName = accountName
        self.isFavorite = isFavorite
        self.display = display
        self.upcoming = upcoming
        self.group = group
    }

    /// The grouped code ("123 456"), or nil while a counter-based code waits to be generated.
    public var code: String? {
        switch display {
        case .timed(let code, _, _, _), .generated(let code, _): code
        case .onRequest, .offScreen: nil
        }
    }

    /// Seconds until the code changes, for time-based codes.
    public var secondsLeft: Int? {
        if case .timed(_, _, let seconds, _) = display { seconds } else { nil }
    }

    /// The fraction of the period still left, from 1 down to 0, for time-based codes.
    public var remainingFraction: Double? {
        if case .timed(_, _, let seconds, let period) = display { Double(seconds) / Double(period) } else { nil }
    }
}
