import DataLayer
import Domain
import DomainTestSupport
import Foundation
import Synchronization

/// One machine's network path to the server: offline when the model says so; otherwise the
/// server as this machine's device reaches it (which refuses a revoked one).
final class ModelLink: SyncRemote {
    let server: any ModelServer
    let state = Mutex<(online: Bool, enrolment: SyncEnrolment?)>((true, nil))

    init(server: any ModelServer) {
        self.server = server
    }

    private func remote() throws(SyncError) -> any SyncRemote {
        let (online, enrolment) = state.withLock { ($0.online, $0.enrolment) }
        guard online else { throw .offline }
        guard let enrolment else { throw .revoked }
        return server.remote(for: enrolment)
    }

    func pull(after cursor: Int64) async throws(SyncError) -> RemotePage {
        try await remote().pull(after: cursor)
    }

    func push(_ changes: [RemoteChange]) async throws(SyncError) -> [RemotePushResult] {
        try await remote().push(changes)
    }
}

/// One simulated machine: an in-memory vault (the real schema, sealing, journal and sync store),
/// its own clock, and its link to the server. Every change goes through the vault's data source,
/// as a command would make it.
final class ModelMachine: @unchecked Sendable {
    let index: Int
    let clock = FixedClock()
    let link: ModelLink
    private(set) var vault: UnlockedVault
    private var copy: VaultCopy?
    private var passphrases = 0
    var skew: TimeInterval = 0

    init(index: Int, server: any ModelServer) async throws {
        self.index = index
        link = ModelLink(server: server)
        vault = try await Vault.inMemory(holding: [])
    }

    var source: VaultAccountDataSource { VaultAccountDataSource(vault: vault, clock: clock) }
    var store: VaultSyncStore { VaultSyncStore(vault: vault, clock: clock) }

    /// Sets this machine's clock: the model's time, off by its skew.
    func tick(_ now: Date) { clock.set(now.addingTimeInterval(skew)) }

    func isMember() async throws -> Bool { try await store.status().membership != nil }

    /// The journal's records (tombstones too), member or not.
    func records() throws -> [UUID: SyncRecord] {
        try vault.syncRecords()
    }

    /// `sync join` with the model's sync code, as a new device; nothing when already a member.
    func join() async throws {
        guard try await !isMember() else { return }
        let enrolment = try await link.server.enrol(machine: index)
        try await store.begin(
            SyncMembership(code: link.server.code, server: URL(string: "http://127.0.0.1:8787")!, enrolment: enrolment), now: clock.now(),
            joining: true)
        link.state.withLock { $0.enrolment = enrolment }
    }

    /// `sync leave`: the server revokes this device, the membership goes.
    func leave() async throws {
        guard let membership = try await store.status().membership else { return }
        try await link.server.revoke(membership.enrolment.deviceID)
        try await store.end()
        link.state.withLock { $0.enrolment = nil }
    }

    /// One sync, as `tokens sync` runs it: offline, timed out or still conflicting, it tries again later;
    /// revoked (or unknown to the server), the user leaves and joins again. The report of a completed sync.
    func sync() async throws -> SyncReport? {
        guard try await isMember() else { return nil }
        do {
            return try await DefaultSyncUseCase(local: store, remote: link).execute()
        } catch SyncError.offline, SyncError.timedOut, SyncError.stillConflicting {
            // The real server on a busy machine may answer late: as offline, a sync later.
            return nil
        } catch SyncError.revoked, SyncError.unauthorized {
            // Revoked, or unknown to a server restored from before this device enrolled.
            try await store.end()
            try await join()
            return nil
        }
    }

    /// A copy of the vault as it is now.
    func copyVault() throws { copy = try vault.copy() }

    /// The vault replaced by the last copy, opened with the keys it had then.
    func restoreVault() throws {
        guard let copy else { return }
        try vault.close()
        vault = try UnlockedVault.opening(copy)
        let enrolment = try vault.syncEnrolment()
        link.state.withLock { $0.enrolment = enrolment }
    }

    func changePassphrase() throws {
        passphrases += 1
        try vault.changePassphrase(to: Passphrase("passphrase \(passphrases)"), kdf: ScryptParameters(n: 1 << 10, r: 8, p: 1))
    }

    /// The accounts as the user sees them, in order, without dates.
    func content() async throws -> [Account] {
        try await source.fetchAll().map { account in
            var account = account
            account.createdAt = .distantPast
            account.updatedAt = .distantPast
            return account
        }
    }
}
