import Foundation

/// The accounts in list order with their folded search text in one contiguous buffer, valid
/// for one repository revision. Shared by the keystrokes of one search use case.
final class SearchIndex: @unchecked Sendable {
    /// One revision's accounts and text.
    struct Snapshot: Sendable {
        let revision: AccountsRevision
        let accounts: [Account]
        /// Every account's haystack, back to back; `ends[i]` is where account i's text ends.
        private let text: [UInt8]
        private let ends: [Int]

        init(revision: AccountsRevision, accounts: [Account], cache: FoldedTextCache) {
            var text: [UInt8] = []
            var ends: [Int] = []
            ends.reserveCapacity(accounts.count)
            for account in accounts {
                text += cache.haystack(for: account)
                ends.append(text.count)
            }
            self.revision = revision
            self.accounts = accounts
            self.text = text
            self.ends = ends
        }

        /// The accounts whose text matches, in list order.
        func matches(_ query: AccountQuery) -> [Account] {
            text.withUnsafeBufferPointer { text in
                var found: [Account] = []
                var start = 0
                for (position, end) in ends.enumerated() {
                    if query.matches(haystack: UnsafeBufferPointer(rebasing: text[start..<end])) {
                        found.append(accounts[position])
                    }
                    start = end
                }
                return found
            }
        }
    }

    // Guarded by `lock`.
    private var current: Snapshot?
    private let lock = NSLock()

    /// The snapshot, if it was built at `revision`.
    func snapshot(at revision: AccountsRevision) -> Snapshot? {
        lock.withLock { current?.revision == revision ? current : nil }
    }

    func store(_ snapshot: Snapshot) {
        lock.withLock { current = snapshot }
    }
}

/// Folded search text by account, reused while the account's text stays the same, so a
/// rebuild of the index after one edit folds one account again, not all of them.
final class FoldedTextCache: @unchecked Sendable {
    private struct Entry {
        let issuer: String
        let name: String
        let note: String
        let haystack: [UInt8]
    }

    // Guarded by `lock`.
    private var entries: [UUID: Entry] = [:]
    private let lock = NSLock()

    func haystack(for account: Account) -> [UInt8] {
        if let entry = lock.withLock({ entries[account.id] }), entry.issuer == account.issuer, entry.name == account.name,
            entry.note == account.note
        {
            return entry.haystack
        }
        let haystack = AccountQuery.haystack(for: account)
        lock.withLock {
            entries[account.id] = Entry(issuer: account.issuer, name: account.name, note: account.note, haystack: haystack)
        }
        return haystack
    }
}
