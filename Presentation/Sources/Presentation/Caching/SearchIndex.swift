import Domain
import Foundation

/// One repository revision's accounts in list order, with their folded search text back to back
/// in one buffer: what `IndexedSearchAccountsUseCase` scans at each keystroke.
struct SearchIndex: Sendable {
    let revision: AccountsRevision
    let accounts: [Account]
    /// Every account's haystack, back to back; `ends[i]` is where account i's text ends.
    private let text: [UInt8]
    private let ends: [Int]

    /// Folds the accounts' text, reusing `previous`'s for every account whose issuer, name and
    /// note did not change (so a rebuild after one edit folds one account again).
    init(revision: AccountsRevision, accounts: [Account], previous: SearchIndex?) {
        var text: [UInt8] = []
        var ends: [Int] = []
        ends.reserveCapacity(accounts.count)
        var previousPositions: [UUID: Int]?
        for (position, account) in accounts.enumerated() {
            if let previous, let old = previous.position(of: account, hint: position, positions: &previousPositions) {
                text += previous.haystack(at: old)
            } else {
                text += AccountQuery.haystack(for: account)
            }
            ends.append(text.count)
        }
        self.revision = revision
        self.accounts = accounts
        self.text = text
        self.ends = ends
    }

    /// Where `account` is in this index with the same searchable text: at `hint` when the
    /// order held, else by id (the id table is built the first time it is needed).
    private func position(of account: Account, hint: Int, positions: inout [UUID: Int]?) -> Int? {
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

    private func haystack(at position: Int) -> ArraySlice<UInt8> {
        text[(position == 0 ? 0 : ends[position - 1])..<ends[position]]
    }

    /// The accounts whose text matches, in list order.
    func matches(_ query: AccountQuery) -> [Account] {
        var found: [Account] = []
        var start = 0
        for (position, end) in ends.enumerated() {
            if query.matches(haystack: text[start..<end]) { found.append(accounts[position]) }
            start = end
        }
        return found
    }
}
