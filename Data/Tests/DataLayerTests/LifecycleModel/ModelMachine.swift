@testable import DataLayer
import Domain
import DomainTestSupport
import Foundation
import GRDB
import Synchronization

/// The devices revoked on the simulated server (shared by every machine's link).
final class RevokedDevices: Sendable {
    private let devices = Mutex<Set<UUID>>([])
    func insert(_ device: UUID) { _ = devices.withLock { $0.insert(device) } }
    func contains(_ device: UUID?) -> Bool { device.map { id in devices.withLock { $0.contains(id) } } ?? false }
}

/// One machine's network path to the server: offline when the model says so, refused once its
/// device is revoked.
final class ModelLink: SyncRemote {
    let server: InMemorySyncRemote
    let revoked: RevokedDevices
    let state = Mutex<(online: Bool, device: UUID?)>((true, nil))

    init(server: InMemorySyncRemote, revoked: RevokedDevices) {
        self.server = server
        self.revoked = revoked
    }

    private func check() throws(SyncError) {
        let (online, device) = state.withLock { ($0.online, $0.device) }
        guard online else { throw .offline }
        if revoked.contains(device) { throw .revoked }
    }

    func pull(after cursor: Int64) async throws(SyncError) -> RemotePage {
        try check()
        return try await server.pull(after: cursor)
    }

    func push(_ changes: [RemoteChange]) async throws(SyncError) -> [RemotePushResult] {
        try check()
        return try await server.push(changes)
    }
}

/// One simulated machine: an in-memory vault (the real schema, sealing, journal and sync store),
/// its own clock, and its link to the server. Every change goes through the vault's data source,
/// as a command would make it.
final class ModelMachine: @unchecked Sendable {
    static let code = SyncCode(account: UUID(uuidString: "00000000-0000-4000-8000-00000000c0de")!, key: SyncKey(bytes: Array(repeating: 9, count: 32))!)

    let index: Int
    let clock = FixedClock()
    let link: ModelLink
    private(set) var vault: UnlockedVault
    private var enrolments = 0
    private var copy: (database: DatabaseQueue, keys: VaultKeys)?
    private var passphrases = 0
    var skew: TimeInterval = 0

    init(index: Int, server: InMemorySyncRemote, revoked: RevokedDevices) async throws {
        self.index = index
        link = ModelLink(server: server, revoked: revoked)
        vault = try await Vault.inMemory(holding: [])
    }

    var source: VaultAccountDataSource { VaultAccountDataSource(vault: vault, clock: clock) }
    var store: VaultSyncStore { VaultSyncStore(vault: vault, clock: clock) }

    /// Sets this machine's clock: the model's time, off by its skew.
    func tick(_ now: Date) { clock.set(now.addingTimeInterval(skew)) }

    func isMember() async throws -> Bool { try await store.status().membership != nil }

    /// The journal's records (tombstones too), member or not.
    func records() throws -> [UUID: SyncRecord] {
        try vault.read { db, keys, _ in try VaultSyncTables(db: db, keys: keys).entries().mapValues(\.state.record) }
    }

    /// `sync join` with the model's sync code, as a new device; nothing when already a member.
    func join() async throws {
        guard try await !isMember() else { return }
        enrolments += 1
        let device = UUID(uuidString: String(format: "00000000-0000-4000-8000-%04d%08d", index, enrolments))!
        let enrolment = SyncEnrolment(deviceID: device, token: Array(repeating: UInt8(index), count: 32))
        try await store.begin(
            SyncMembership(code: Self.code, server: URL(string: "http://127.0.0.1:8787")!, enrolment: enrolment), now: clock.now(),
            joining: true)
        link.state.withLock { $0.device = device }
    }

    /// `sync leave`: the server revokes this device, the membership goes.
    func leave() async throws {
        guard let membership = try await store.status().membership else { return }
        link.revoked.insert(membership.enrolment.deviceID)
        try await store.end()
    }

    /// One sync, as `tokens sync` runs it: offline or still conflicting, it tries again later;
    /// revoked, the user leaves and joins again. The report of a completed sync.
    func sync() async throws -> SyncReport? {
        guard try await isMember() else { return nil }
        do {
            return try await DefaultSyncUseCase(local: store, remote: link).execute()
        } catch SyncError.offline, SyncError.stillConflicting {
            return nil
        } catch SyncError.revoked {
            try await store.end()
            try await join()
            return nil
        }
    }

    /// A copy of the vault as it is now (SQLite's online backup).
    func copyVault() throws {
        let database = try DatabaseQueue(configuration: VaultDatabase.configuration())
        try vault.database.backup(to: database)
        copy = (database, vault.keys)
    }

    /// The vault replaced by the last copy, opened with the keys it had then.
    func restoreVault() throws {
        guard let copy else { return }
        let database = try DatabaseQueue(configuration: VaultDatabase.configuration())
        try copy.database.backup(to: database)
        let header = try database.read { db in try Vault.readHeader(db, path: ":memory:") }
        try vault.close()
        vault = UnlockedVault(database: database, path: ":memory:", keys: copy.keys, header: header)
        let device = try vault.read { db, keys, _ in try VaultSyncTables(db: db, keys: keys).account()?.state.membership?.enrolment.deviceID }
        link.state.withLock { $0.device = device }
    }

    func changePassphrase() throws {
        passphrases += 1
        try vault.changePassphrase(to: Passphrase("passphrase \(passphrases)"), kdf: VaultFolder.fastKDF)
    }

    /// The accounts as the user sees them, in order, without dates.
    func content() async throws -> [Account] { try await source.fetchAll().withoutDates }
}
