import Foundation

/// What restoring a backup would change, worked out before anything is written and shown to
/// the user first. A restore merges as a machine that was offline since the backup would: it
/// brings back what is gone, never deletes, and never overwrites a newer edit.
public struct RestorePlan: Sendable {
    /// Accounts of the backup that this vault no longer has (or never had): added back, with
    /// their ids, so a vault that syncs sends them as edits of this machine.
    public let added: [Account]
    /// Accounts the backup holds in a newer edit than this vault's (a copy from another
    /// machine): taken from the backup, the HOTP counter never lowered.
    public let updated: [Account]
    /// Accounts edited here after the backup was written: kept as they are here.
    public let keptNewer: [Account]
    /// Accounts of the backup that this vault keeps under another id (same secret, kind and
    /// parameters, see DuplicateKey): not added again.
    public let duplicates: [Account]
    /// How many of the backup's accounts are here exactly as in the backup.
    public let unchanged: Int
    /// How many accounts only this vault has: kept (a restore never deletes).
    public let onlyHere: Int

    public init(added: [Account], updated: [Account], keptNewer: [Account], duplicates: [Account], unchanged: Int, onlyHere: Int) {
        self.added = added
        self.updated = updated
        self.keptNewer = keptNewer
        self.duplicates = duplicates
        self.unchanged = unchanged
        self.onlyHere = onlyHere
    }

    /// True when applying the plan would write nothing.
    public var changesNothing: Bool { added.isEmpty && updated.isEmpty }
}

/// Restores accounts from a backup's accounts (read and checked by Data) into the vault:
/// `plan` says what would change and writes nothing; `apply` writes it.
public protocol RestoreBackupUseCase: Sendable {
    func plan(restoring backup: [Account]) async throws -> RestorePlan
    func apply(_ plan: RestorePlan) async throws
}

/// The RestoreBackup use case over the repository.
public struct DefaultRestoreBackupUseCase: RestoreBackupUseCase {
    private let repository: any AccountRepository

    public init(repository: any AccountRepository) {
        self.repository = repository
    }

    public func plan(restoring backup: [Account]) async throws -> RestorePlan {
        let here = try await repository.list()
        let byID = Dictionary(here.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var keys = Set(here.map(DuplicateKey.init))
        var added: [Account] = []
        var updated: [Account] = []
        var keptNewer: [Account] = []
        var duplicates: [Account] = []
        var unchanged = 0
        var seen = Set<UUID>()
        for account in backup where seen.insert(account.id).inserted {
            guard let current = byID[account.id] else {
                if keys.insert(DuplicateKey(account)).inserted { added.append(account) } else { duplicates.append(account) }
                continue
            }
            if current == account {
                unchanged += 1
            } else if account.updatedAt > current.updatedAt {
                updated.append(Self.keepingCounter(of: current, in: account))
            } else {
                keptNewer.append(current)
            }
        }
        let onlyHere = here.count { !seen.contains($0.id) }
        return RestorePlan(
            added: added, updated: updated, keptNewer: keptNewer, duplicates: duplicates, unchanged: unchanged, onlyHere: onlyHere)
    }

    public func apply(_ plan: RestorePlan) async throws {
        if !plan.added.isEmpty { try await repository.add(contentsOf: plan.added) }
        for account in plan.updated { try await repository.update(account) }
    }

    /// `account` with the larger of the two HOTP counters: a counter never goes back, or a code
    /// already used would be shown again.
    static func keepingCounter(of current: Account, in account: Account) -> Account {
        guard case .hotp(let kept) = current.kind, case .hotp(let restored) = account.kind, kept > restored else { return account }
        var result = account
        result.kind = .hotp(counter: kept)
        return result
    }
}
