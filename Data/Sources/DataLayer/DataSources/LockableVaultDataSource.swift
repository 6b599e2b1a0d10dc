import Domain
import Foundation

/// The vault for the interactive screen: starts locked, unlocks with a passphrase (or the key
/// `tokens unlock` kept), and locks again (closing the file and dropping the keys, the kept one
/// too when so configured) when the screen goes idle. Its sync state is reachable only while
/// unlocked.
public actor LockableVaultDataSource: AccountDataSource, AccountStoreLock, SyncLocalStore, SyncMembershipStore {
    private let path: String
    private let clock: any WallClock
    private let keptKeys: VaultKeyCache?
    private let forgetsKeptKeyOnLock: Bool
    private var vault: UnlockedVault?
    private var source: VaultAccountDataSource?
    private var sync: VaultSyncStore?
    /// Counts unlocks: a newly opened connection starts its own change counters.
    private var epoch: UInt64 = 0
    /// The open vault's revision when it opened.
    private var openedAt: (external: UInt64, own: UInt64)?
    private let whenChanged: (@Sendable (UnlockedVault) throws -> Void)?
    /// What `whenChanged` threw, for `takeNotices`.
    private var notices: [String] = []

    /// `keptKeys`: where `tokens unlock` keeps the vault's key; `forgetsKeptKeyOnLock`: whether
    /// locking (idle, or asked) drops that key too. `whenChanged` runs on the unlocked vault
    /// as it closes (locked or quitting) when its accounts changed since it opened: App's
    /// automatic backup; what it throws is kept for `takeNotices`.
    public init(
        path: String, clock: any WallClock = SystemClock(), keptKeys: VaultKeyCache? = nil, forgetsKeptKeyOnLock: Bool = true,
        whenChanged: (@Sendable (UnlockedVault) throws -> Void)? = nil
    ) {
        self.path = path
        self.clock = clock
        self.keptKeys = keptKeys
        self.forgetsKeptKeyOnLock = forgetsKeptKeyOnLock
        self.whenChanged = whenChanged
    }

    /// The failures of `whenChanged` since the last call, as lines to show once the screen ends.
    public func takeNotices() -> [String] {
        defer { notices = [] }
        return notices
    }

    public nonisolated var requiresUnlock: Bool { true }

    public func unlock(passphrase: [UInt8]) throws {
        opened(try Vault.open(at: path, passphrase: Passphrase(passphrase)))
    }

    /// Unlocks with the key `tokens unlock` kept, if one is kept and opens the vault; false when
    /// the passphrase is needed. Throws the keyring's error where it cannot be used.
    public func unlockWithKeptKey() throws -> Bool {
        guard let keptKeys, let vault = try keptKeys.open(at: path) else { return false }
        opened(vault)
        return true
    }

    private func opened(_ vault: UnlockedVault) {
        self.vault = vault
        self.openedAt = try? vault.revision()
        self.source = VaultAccountDataSource(vault: vault, clock: clock)
        self.sync = VaultSyncStore(vault: vault, clock: clock)
        epoch &+= 1
    }

    /// Locks: closes the vault and drops its keys, and the kept key when so configured (a
    /// keyring that cannot be used has none to drop).
    public func lock() {
        let open = vault.map { VaultIdentity(id: $0.vaultID) }
        close()
        guard forgetsKeptKeyOnLock, let keptKeys else { return }
        // By the open vault's id, without reading the file again; else by the file's.
        if let open {
            _ = try? keptKeys.forget(open)
        } else {
            _ = try? keptKeys.forget(vaultAt: path)
        }
    }

    /// Closes the vault and drops its keys, leaving a kept key kept (the screen is quitting).
    public func close() {
        if let vault, let whenChanged, let now = try? vault.revision(), now.external != openedAt?.external || now.own != openedAt?.own {
            do {
                try whenChanged(vault)
            } catch {
                notices.append("\(error)")
            }
        }
        try? vault?.close()
        vault = nil
        source = nil
        sync = nil
    }

    private func current() throws -> VaultAccountDataSource {
        guard let source else { throw VaultError.locked }
        return source
    }

    public func fetchAll() async throws -> [Account] { try await current().fetchAll() }
    public func fetch(id: UUID) async throws -> Account? { try await current().fetch(id: id) }
    public func search(_ query: AccountQuery) async throws -> [Account] { try await current().search(query) }
    public func accounts(idPrefix prefix: AccountIDPrefix) async throws -> [Account] {
        try await current().accounts(idPrefix: prefix)
    }
    public func revision() async throws -> AccountsRevision { try await current().revision().within(epoch) }
    public func insert(_ account: Account) async throws { try await current().insert(account) }
    public func insertAll(_ accounts: [Account]) async throws { try await current().insertAll(accounts) }
    public func replace(_ account: Account) async throws -> Bool { try await current().replace(account) }
    public func remove(id: UUID) async throws -> Bool { try await current().remove(id: id) }
    public func reorder(_ ids: [UUID]) async throws { try await current().reorder(ids) }

    public func modify(id: UUID, _ change: @Sendable (inout Account) throws -> Void) async throws -> Account? {
        try await current().modify(id: id, change)
    }

    private func syncStore() throws -> VaultSyncStore {
        guard let sync else { throw VaultError.locked }
        return sync
    }

    public func quietStart() async throws -> SyncQuietStart? { try await syncStore().quietStart() }
    public func commitQuiet(_ report: SyncReport) async throws { try await syncStore().commitQuiet(report) }
    public func snapshot() async throws -> SyncSnapshot { try await syncStore().snapshot() }
    public func pendingCount() async throws -> Int { try await syncStore().pendingCount() }
    public func commit(_ snapshot: SyncSnapshot, over taken: SyncSnapshot, report: SyncReport) async throws {
        try await syncStore().commit(snapshot, over: taken, report: report)
    }
    public func status() async throws -> SyncLocalStatus { try await syncStore().status() }
    public func membership() async throws -> SyncMembership? { try await syncStore().membership() }
    public func clockOffset() async throws -> ClockOffset? { try await syncStore().clockOffset() }
    public func begin(_ membership: SyncMembership, now: Date, joining: Bool) async throws {
        try await syncStore().begin(membership, now: now, joining: joining)
    }
    public func end() async throws { try await syncStore().end() }
    public func recordRevoked() async throws { try await syncStore().recordRevoked() }
    public func replace(with membership: SyncMembership, resend: Bool) async throws {
        try await syncStore().replace(with: membership, resend: resend)
    }
}
