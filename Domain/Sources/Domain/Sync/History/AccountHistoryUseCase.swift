import Foundation

/// The accounts' histories as this machine can read them (`tokens history`).
public struct AccountHistoryReport: Hashable, Sendable {
    /// Every entry with a version kept, by the latest version's position, deleted ones last.
    public let accounts: [AccountHistory]
    /// Earlier versions this machine could not open.
    public let unreadable: Int

    public init(accounts: [AccountHistory], unreadable: Int) {
        self.accounts = accounts
        self.unreadable = unreadable
    }
}

/// Reads every earlier version the server keeps (decrypted by the remote) and puts each with
/// the record this machine holds: what changed when, and on which machine.
public struct AccountHistoryUseCase: Sendable {
    private let local: any SyncLocalStore
    /// Pages read at most (500 versions each): a server that never ends a listing stops here.
    private let pageLimit: Int

    public init(local: any SyncLocalStore, pageLimit: Int = 2_000) {
        self.local = local
        self.pageLimit = pageLimit
    }

    public func execute(remote: any SyncHistoryRemote) async throws -> AccountHistoryReport {
        var earlier: [UUID: [EarlierVersion]] = [:]
        var unreadable = 0
        var cursor: Int64 = 0
        for _ in 0..<pageLimit {
            let page = try await remote.earlier(after: cursor)
            for version in page.versions { earlier[version.entry.record.id, default: []].append(version) }
            unreadable += page.unreadable
            guard page.hasMore, let last = page.last, last > cursor else { break }
            cursor = last
        }
        let snapshot = try await local.snapshot()
        let ids = Set(earlier.keys).union(snapshot.records.keys)
        let accounts = ids.compactMap { id -> AccountHistory? in
            let current = snapshot.records[id]
            let base = snapshot.bases[id]?.version ?? 0
            // Sealed (or to be sealed) above every version the server replaced.
            let replaced = earlier[id]?.map(\.entry.version).max() ?? 0
            let version = max(snapshot.pending.contains(id) || base == 0 ? base + 1 : base, replaced + 1)
            return AccountHistory.assemble(id: id, earlier: earlier[id] ?? [], current: current, currentVersion: version)
        }
        return AccountHistoryReport(
            accounts: accounts.sorted { lhs, rhs in
                if lhs.isDeleted != rhs.isDeleted { return !lhs.isDeleted }
                let (l, r) = (lhs.latest.record.position.value, rhs.latest.record.position.value)
                return l != r ? l < r : lhs.id.ordersBefore(rhs.id)
            },
            unreadable: unreadable)
    }
}

/// Brings an earlier version of an account back as a new change of this machine (`tokens
/// restore`): its fields as they were, an HOTP counter never lowered, a deleted account added
/// again under its id. The change syncs like any other.
public struct RestoreAccountVersionUseCase: Sendable {
    private let repository: any AccountRepository
    private let clock: any WallClock

    public init(repository: any AccountRepository, clock: any WallClock) {
        self.repository = repository
        self.clock = clock
    }

    /// The account as restored.
    public func execute(_ version: AccountVersion) async throws -> Account {
        var record = version.record
        record.isDeleted.value = false
        let existing: Account?
        do { existing = try await repository.get(id: record.id) } catch RepositoryError.notFound { existing = nil }
        guard var account = SyncRecording.account(from: record, previous: existing) else { throw RepositoryError.notFound(record.id) }
        if case .hotp(let counter) = account.kind, let existing, case .hotp(let current) = existing.kind {
            account.kind = .hotp(counter: max(counter, current))
        }
        account.updatedAt = clock.now()
        if existing != nil {
            try await repository.update(account)
        } else {
            try await repository.add(account)
        }
        return account
    }
}
