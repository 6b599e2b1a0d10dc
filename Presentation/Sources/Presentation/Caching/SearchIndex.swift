import Domain
import Foundation

/// One repository revision's accounts in list order, with their folded search text back to back
/// in one buffer: what `IndexedSearchAccountsUseCase` scans at each keystroke. The text is
/// folded at the first query that needs it (`folded()`), not when the accounts are listed: the
/// screen's first frame lists every account and searches nothing.
struct SearchIndex: Sendable {
    let revision: AccountsRevision
    let accounts: [Account]
    /// The accounts' folded text; nil until a query needs it.
    private var text: FoldedText?
    /// The folded text of the index this one replaced, reused when this one is folded.
    private var earlier: (accounts: [Account], text: FoldedText)?

    /// Every account's haystack, back to back; `ends[i]` is where account i's text ends.
    private struct FoldedText: Sendable {
        var bytes: [UInt8] = []
        var ends: [Int] = []

        func haystack(at position: Int) -> ArraySlice<UInt8> {
            bytes[(position == 0 ? 0 : ends[position - 1])..<ends[position]]
        }
    }

    /// The accounts of `revision`, to be folded reusing `previous`'s text for every account
    /// whose issuer, name and note did not change (so a rebuild after one edit folds one
    /// account again).
    init(revision: AccountsRevision, accounts: [Account], previous: SearchIndex?) {
        self.revision = revision
        self.accounts = accounts
        if let previous {
            earlier = previous.text.map { (previous.accounts, $0) } ?? previous.earlier
        }
    }

    var isFolded: Bool { text != nil }

    /// This index with every account's text folded.
    func folded() -> SearchIndex {
        guard text == nil else { return self }
        var folded = FoldedText()
        folded.ends.reserveCapacity(accounts.count)
        var earlierPositions: [UUID: Int]?
        for (position, account) in accounts.enumerated() {
            if let earlier, let old = Self.position(of: account, hint: position, in: earlier.accounts, positions: &earlierPositions) {
                folded.bytes += earlier.text.haystack(at: old)
            } else {
                folded.bytes += AccountQuery.haystack(for: account)
            }
            folded.ends.append(folded.bytes.count)
        }
        var index = self
        index.text = folded
        index.earlier = nil
        return index
    }

    /// Where `account` is in `accounts` with the same searchable text: at `hint` when the order
    /// held, else by id (the id table is built the first time it is needed).
    private static func position(of account: Account, hint: Int, in accounts: [Account], positions: inout [UUID: Int]?) -> Int? {
        var position: Int?
        if hint < accounts.count, accounts[hint].id == account.id {
            position = hint
        } else {
            if positions == nil {
                positions = Dictionary(accounts.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
            }
            position = positions?[account.id]
        }
        guard let position, accounts[position].issuer == account.issuer, accounts[position].name == account.name,
            accounts[position].note == account.note
        else { return nil }
        return position
    }

    /// The accounts whose text matches, in list order (folding the text first if it is not).
    func matches(_ query: AccountQuery) -> [Account] {
        guard let text else { return folded().matches(query) }
        var found: [Account] = []
        var start = 0
        for (position, end) in text.ends.enumerated() {
            if query.matches(haystack: text.bytes[start..<end]) { found.append(accounts[position]) }
            start = end
        }
        return found
    }
}
