import Foundation

/// A search query over issuer, account name and note, ignoring case and accents.
public struct AccountQuery: Hashable, Sendable {
    /// The folded words; an account matches when every word is in one of its fields.
    public let terms: [String]

    public init(_ text: String) {
        self.terms = Self.fold(text).split(whereSeparator: \.isWhitespace).map(String.init)
    }

    /// True for an empty query.
    public var matchesEverything: Bool { terms.isEmpty }

    public func matches(_ account: Account) -> Bool {
        guard !terms.isEmpty else { return true }
        let haystack = Self.fold(account.issuer + "\n" + account.name + "\n" + account.note)
        return terms.allSatisfy { haystack.contains($0) }
    }

    /// Lower case without diacritics: "Ünïcode" and "unicode" fold to the same text.
    public static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
    }
}
