import Foundation

/// What to do with an imported account that duplicates one already kept (same secret and kind).
public enum DuplicatePolicy: String, CaseIterable, Sendable {
    case skip, keep
}

/// The outcome of an import, shown in full before (`--dry-run`) or after it is applied.
public struct ImportReport: Sendable {
    public let format: ImportFormat
    /// Accounts added (or that would be added).
    public let added: [ImportedEntry]
    /// Accounts that duplicate one already kept or one earlier in the file.
    public let duplicates: [ImportedEntry]
    public let duplicatePolicy: DuplicatePolicy
    /// Entries that could not be imported, and why.
    public let dropped: [DroppedItem]
    /// Fields lost or assumed on the way.
    public let notices: [DroppedItem]
    /// True when nothing was written.
    public let isDryRun: Bool
}

/// Imports another app's export: decodes it, finds duplicates, and adds everything in one
/// transaction (all or nothing). The report says what was added, skipped, dropped and lost.
public protocol ImportAccountsUseCase: Sendable {
    func execute(
        _ data: Data, format: ImportFormat?, password: String?, duplicates: DuplicatePolicy, dryRun: Bool
    ) async throws -> ImportReport
}

/// The ImportAccounts use case over the decoder port and the repository.
public struct DefaultImportAccountsUseCase: ImportAccountsUseCase {
    /// The most entries one import takes.
    public static let maximumEntries = 100_000
    private let decoder: any AccountImportDecoder
    private let repository: any AccountRepository
    private let clock: any WallClock
    private let random: any RandomSource

    public init(
        decoder: any AccountImportDecoder, repository: any AccountRepository, clock: any WallClock,
        random: any RandomSource
    ) {
        self.decoder = decoder
        self.repository = repository
        self.clock = clock
        self.random = random
    }

    public func execute(
        _ data: Data, format: ImportFormat?, password: String?, duplicates policy: DuplicatePolicy, dryRun: Bool
    ) async throws -> ImportReport {
        let decoded = try decoder.decode(data, as: format, password: password)
        guard decoded.entries.count <= Self.maximumEntries else {
            throw ImportError.tooManyEntries(decoded.entries.count, limit: Self.maximumEntries)
        }
        var seen = Set(try await repository.list().map(DuplicateKey.init))
        var added: [ImportedEntry] = []
        var duplicates: [ImportedEntry] = []
        for entry in decoded.entries {
            let key = DuplicateKey(entry.spec)
            if seen.contains(key) {
                duplicates.append(entry)
                if policy == .skip { continue }
            }
            seen.insert(key)
            added.append(entry)
        }
        if !dryRun, !added.isEmpty {
            let now = clock.now()
            let accounts = added.map { entry in
                var account = Account(
                    id: random.uuid(), spec: entry.spec, note: entry.note, groups: entry.groups, createdAt: now)
                account.isFavorite = entry.isFavorite
                return account
            }
            try await repository.add(contentsOf: accounts)
        }
        return ImportReport(
            format: decoded.format, added: added, duplicates: duplicates, duplicatePolicy: policy,
            dropped: decoded.dropped, notices: decoded.notices, isDryRun: dryRun)
    }
}

/// Two accounts are the same account when their secret and kind of moving factor match.
struct DuplicateKey: Hashable {
    let secret: [UInt8]
    let kind: String

    init(_ spec: AccountSpec) {
        secret = spec.secret.bytes
        kind = spec.kind.typeName
    }

    init(_ account: Account) {
        secret = account.secret.bytes
        kind = account.kind.typeName
    }
}
