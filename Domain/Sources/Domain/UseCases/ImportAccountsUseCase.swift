import Foundation

/// What to do with an imported account that duplicates one already kept (see DuplicateKey).
public enum DuplicatePolicy: String, CaseIterable, Sendable {
    case skip, keep
}

/// The outcome of an import, shown in full before (`--dry-run`) or after it is applied.
public struct ImportReport: Sendable {
    public let format: ImportFormat
    /// Accounts added (or that would be added).
    public let added: [ImportedEntry]
    /// Accounts that duplicate one already kept or one earlier in the file, each with the one it duplicates.
    public let duplicates: [ImportDuplicate]
    public let duplicatePolicy: DuplicatePolicy
    /// Entries that could not be imported, and why.
    public let dropped: [DroppedItem]
    /// Fields lost or assumed on the way.
    public let notices: [DroppedItem]
    /// True when nothing was written.
    public let isDryRun: Bool

    public init(
        format: ImportFormat, added: [ImportedEntry], duplicates: [ImportDuplicate], duplicatePolicy: DuplicatePolicy,
        dropped: [DroppedItem], notices: [DroppedItem], isDryRun: Bool
    ) {
        self.format = format
        self.added = added
        self.duplicates = duplicates
        self.duplicatePolicy = duplicatePolicy
        self.dropped = dropped
        self.notices = notices
        self.isDryRun = isDryRun
    }
}

/// Imports another app's export: decodes it, finds duplicates, and adds everything in one
/// transaction (all or nothing). The report says what was added, skipped, dropped and lost.
public protocol ImportAccountsUseCase: Sendable {
    func execute(
        _ data: Data, format: ImportFormat?, password: String?, duplicates: DuplicatePolicy, dryRun: Bool
    ) async throws -> ImportReport
    /// The same with the export already decoded (by the decoder port, e.g. while the vault was
    /// being unlocked).
    func execute(_ decoded: DecodedImport, duplicates: DuplicatePolicy, dryRun: Bool) async throws -> ImportReport
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
        try await execute(try decoder.decode(data, as: format, password: password), duplicates: policy, dryRun: dryRun)
    }

    public func execute(_ decoded: DecodedImport, duplicates policy: DuplicatePolicy, dryRun: Bool) async throws -> ImportReport {
        guard decoded.entries.count <= Self.maximumEntries else {
            throw ImportError.tooManyEntries(decoded.entries.count, limit: Self.maximumEntries)
        }
        var seen: [DuplicateKey: String] = [:]
        for account in try await repository.list() where seen[DuplicateKey(account)] == nil {
            seen[DuplicateKey(account)] = "\(account.displayName) (id \(account.shortID))"
        }
        var added: [ImportedEntry] = []
        var duplicates: [ImportDuplicate] = []
        for (index, entry) in decoded.entries.enumerated() {
            let key = DuplicateKey(entry.spec)
            if let existing = seen[key] {
                duplicates.append(ImportDuplicate(entry: entry, existing: existing))
                if policy == .skip { continue }
            } else {
                seen[key] = "\(entry.label), entry \(index + 1) of this file"
            }
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

/// An imported entry that duplicates an account, and which one: "GitHub (me) (id 3f2a91c0)",
/// or an earlier entry of the same file.
public struct ImportDuplicate: Hashable, Sendable {
    public let entry: ImportedEntry
    public let existing: String

    public init(entry: ImportedEntry, existing: String) {
        self.entry = entry
        self.existing = existing
    }
}
