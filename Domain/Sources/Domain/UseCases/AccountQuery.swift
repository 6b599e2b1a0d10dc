import Foundation

/// A search query over issuer, account name and note, ignoring case and accents.
public struct AccountQuery: Hashable, Sendable {
    /// The folded words; an account matches when every word is in one of its fields.
    public let terms: [String]
    @usableFromInline let termBytes: [[UInt8]]

    public init(_ text: String) {
        self.terms = Self.fold(text).split(whereSeparator: \.isWhitespace).map(String.init)
        self.termBytes = terms.map { Array($0.utf8) }
    }

    /// True for an empty query.
    public var matchesEverything: Bool { terms.isEmpty }

    /// The longest of the folded words, as bytes: every haystack the query matches holds it, so
    /// a search through many haystacks may look for it alone first and test only the haystacks
    /// it lies in (nil for an empty query).
    public var longestTerm: [UInt8]? { termBytes.max { $0.count < $1.count } }

    public func matches(_ account: Account) -> Bool {
        matches(haystack: Self.haystack(for: account))
    }

    /// Whether a prepared haystack (see `haystack(for:)`) matches.
    public func matches(haystack: [UInt8]) -> Bool {
        matches(haystack: haystack[...])
    }

    /// Whether a prepared haystack matches, read in place (a search index keeps every
    /// account's haystack in one buffer).
    public func matches(haystack: ArraySlice<UInt8>) -> Bool {
        termBytes.allSatisfy { Self.contains(haystack, $0) }
    }

    /// Whether a prepared haystack matches, read where it lies (any buffer of bytes: the vault
    /// opens its sealed index into one and searches it in place). Inlinable, so that the caller
    /// gets this rule compiled for its buffer.
    @inlinable
    public func matches<Haystack: RandomAccessCollection>(haystack: Haystack) -> Bool
    where Haystack.Element == UInt8, Haystack.Index == Int {
        termBytes.allSatisfy { Self.contains(haystack, $0) }
    }

    /// The folded text a query searches in: issuer, account name and note.
    public static func haystack(for account: Account) -> [UInt8] {
        var haystack = foldedBytes(account.issuer)
        haystack.append(0x0A)
        haystack += foldedBytes(account.name)
        haystack.append(0x0A)
        haystack += foldedBytes(account.note)
        return haystack
    }

    /// Lower case without diacritics: "Ünïcode" and "unicode" fold to the same text. ASCII is
    /// lower-cased byte by byte (see foldedBytes); only other text goes through Foundation.
    public static func fold(_ text: String) -> String {
        guard text.utf8.allSatisfy({ $0 < 0x80 }) else { return foundationFold(text) }
        return String(decoding: foldedBytes(text), as: UTF8.self)
    }

    /// Foundation's folding, for text beyond ASCII.
    private static func foundationFold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
    }

    /// The folded UTF-8 of a field. ASCII, by far the common case, is lower-cased byte by byte;
    /// only other text goes through Foundation's (much slower) folding.
    static func foldedBytes(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            guard byte < 0x80 else { return Array(foundationFold(text).utf8) }
            bytes.append(byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte)
        }
        return bytes
    }

    @inlinable
    static func contains<Haystack: RandomAccessCollection>(_ haystack: Haystack, _ needle: [UInt8]) -> Bool
    where Haystack.Element == UInt8, Haystack.Index == Int {
        guard let first = needle.first else { return true }
        guard haystack.count >= needle.count else { return false }
        var index = haystack.startIndex
        let last = haystack.endIndex - needle.count
        while index <= last {
            if haystack[index] == first {
                var offset = 1
                while offset < needle.count, haystack[index + offset] == needle[offset] { offset += 1 }
                if offset == needle.count { return true }
            }
            index += 1
        }
        return false
    }
}
