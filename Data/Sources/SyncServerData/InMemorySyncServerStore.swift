import Foundation
import SyncServer

/// The sync server's store in memory (DEV and tests): an actor, so each call is one
/// transaction, with the same behaviour as the PostgreSQL store (one contract suite checks both).
public actor InMemorySyncServerStore: SyncServerStore {
    private struct AccountState {
        var record: SyncAccountRecord
        var head: Int64 = 0
        var horizon: Int64 = 0
        var entries: [EntryID: SyncEntry] = [:]
        var devices: [SyncDevice] = []
        var wrapped: [DeviceID: WrappedSyncKey] = [:]
        var quota = AccountQuota.serverDefault
        var history: [EarlierEntry] = []
    }

    private var accounts: [SyncAccountID: AccountState] = [:]
    private var attempts: [(account: SyncAccountID, address: String, time: Date)] = []
    private var creations: [(address: String, time: Date)] = []
    private var invitations: [SecretDigest: (expiresAt: Date, usedBy: SyncAccountID?)] = [:]
    /// Random per store: a server in memory that restarts has lost everything, a new generation.
    private let generationID = UUID().uuidString.lowercased()

    public init() {}

    public func generation() -> String { generationID }

    /// Always ready: the store is this process's memory.
    public func checkReady() async throws {}

    public func createAccount(_ account: SyncAccountRecord) throws {
        guard accounts[account.id] == nil else { throw SyncServerError.accountExists }
        accounts[account.id] = AccountState(record: account)
    }

    public func account(_ id: SyncAccountID) -> SyncAccountRecord? { accounts[id]?.record }

    public func takeInvitation(_ digest: SecretDigest, for account: SyncAccountID, at time: Date) -> Bool {
        guard let invitation = invitations[digest], invitation.expiresAt > time, invitation.usedBy ?? account == account else {
            return false
        }
        invitations[digest] = (invitation.expiresAt, account)
        return true
    }

    public func recordEnrolmentAttempt(account: SyncAccountID, address: String, at time: Date, since: Date) -> EnrolmentAttempts {
        attempts.removeAll { $0.time < since }
        attempts.append((account, address, time))
        return EnrolmentAttempts(
            forAccount: attempts.count { $0.account == account }, fromAddress: attempts.count { $0.address == address })
    }

    public func recordAccountCreation(address: String, at time: Date, since: Date) -> AccountCreations {
        creations.removeAll { $0.time < since }
        creations.append((address, time))
        return AccountCreations(fromAddress: creations.count { $0.address == address }, inAll: creations.count)
    }

    public func addDevice(_ device: SyncDevice, limit: Int) -> Bool {
        guard var state = accounts[device.account], state.devices.count(where: { !$0.isRevoked }) < limit else { return false }
        state.devices.append(device)
        accounts[device.account] = state
        return true
    }

    public func devices(of account: SyncAccountID) -> [SyncDevice] { accounts[account]?.devices ?? [] }

    public func device(withToken digest: SecretDigest) -> SyncDevice? {
        for state in accounts.values {
            if let device = state.devices.first(where: { $0.tokenDigest == digest }) { return device }
        }
        return nil
    }

    public func recordActivity(_ sightings: [DeviceSeen]) {
        for sighting in sightings {
            guard var state = accounts[sighting.account], let index = state.devices.firstIndex(where: { $0.id == sighting.device })
            else { continue }
            state.devices[index].lastSeenAt = max(state.devices[index].lastSeenAt ?? sighting.at, sighting.at)
            accounts[sighting.account] = state
        }
    }

    public func revokeDevice(_ id: DeviceID, of account: SyncAccountID, at time: Date) -> Bool {
        guard var state = accounts[account], let index = state.devices.firstIndex(where: { $0.id == id }) else { return false }
        state.devices[index].revokedAt = state.devices[index].revokedAt ?? time
        accounts[account] = state
        return true
    }

    public func setDeviceKey(_ key: [UInt8], for device: DeviceID, of account: SyncAccountID) -> Bool {
        guard var state = accounts[account], let index = state.devices.firstIndex(where: { $0.id == device }) else { return false }
        guard state.devices[index].deviceKey == nil || state.devices[index].deviceKey == key else { return false }
        state.devices[index].deviceKey = key
        accounts[account] = state
        return true
    }

    public func rotateKey(_ rotation: SyncKeyRotationRecord, of account: SyncAccountID, at time: Date) -> Bool {
        guard var state = accounts[account], state.record.keyVersion == rotation.keyVersion - 1 else { return false }
        let record = state.record
        state.record = SyncAccountRecord(
            id: record.id, authKeyDigest: rotation.authKeyDigest, createdAt: record.createdAt, keyVersion: rotation.keyVersion,
            keyRing: rotation.keyRing)
        for index in state.devices.indices where rotation.revoke.contains(state.devices[index].id) {
            state.devices[index].revokedAt = state.devices[index].revokedAt ?? time
        }
        for (device, bytes) in rotation.wrapped where state.devices.contains(where: { $0.id == device }) {
            state.wrapped[device] = WrappedSyncKey(keyVersion: rotation.keyVersion, bytes: bytes)
        }
        accounts[account] = state
        return true
    }

    public func wrappedKey(for device: DeviceID, of account: SyncAccountID) -> WrappedSyncKey? {
        accounts[account]?.wrapped[device]
    }

    public func push(_ changes: [EntryChange], to account: SyncAccountID, at time: Date, quota: StorageQuota) throws -> [PushResult] {
        guard accounts[account] != nil else { throw SyncServerError.unauthorized }
        // Decided first, on the state as it is, then written in place: a copy of the account's
        // state would copy its history at every push.
        let push = try Self.decide(changes, on: accounts[account]!, at: time, quota: quota)
        for (written, replaced) in push.writes {
            if let replaced, !replaced.payload.isDeleted {
                accounts[account]!.history.append(EarlierEntry(entry: replaced, replacedAt: time))
            }
            accounts[account]!.entries[written.id] = written
        }
        accounts[account]!.head = push.head
        return push.results
    }

    /// What a push does to `state`: each change's answer, the writes in order (each with what it
    /// replaces) and the head after them; past the quota, thrown before anything is written.
    private static func decide(
        _ changes: [EntryChange], on state: borrowing AccountState, at time: Date, quota: StorageQuota
    ) throws -> (results: [PushResult], writes: [(SyncEntry, replaced: SyncEntry?)], head: Int64) {
        let before = usage(of: state)
        var usage = before
        var head = state.head
        var written: [EntryID: SyncEntry] = [:]
        var writes: [(SyncEntry, replaced: SyncEntry?)] = []
        let results = changes.map { change -> PushResult in
            let stored = written[change.id] ?? state.entries[change.id]
            switch PushDecision.decide(change, stored: stored) {
            case .write:
                usage.write(change.payload, replacing: stored?.payload)
                head += 1
                let entry = SyncEntry(id: change.id, sequence: head, payload: change.payload, changedAt: time)
                written[change.id] = entry
                writes.append((entry, stored))
                return .applied(sequence: head)
            case .alreadyApplied(let sequence): return .applied(sequence: sequence)
            case .conflict(let current): return .conflict(current: current)
            }
        }
        try usage.check(state.quota.applied(to: quota), from: before)
        return (results, writes, head)
    }

    public func changes(of account: SyncAccountID, after cursor: Int64, limit: Int) -> [SyncEntry] {
        let entries = accounts[account]?.entries.values.filter { $0.sequence > cursor } ?? []
        return Array(entries.sorted { $0.sequence < $1.sequence }.prefix(limit))
    }

    public func head(of account: SyncAccountID) -> Int64 { accounts[account]?.head ?? 0 }

    public func pullBounds(of account: SyncAccountID) -> PullBounds {
        PullBounds(horizon: accounts[account]?.horizon ?? 0, keyVersion: accounts[account]?.record.keyVersion ?? 1)
    }

    public func page(of account: SyncAccountID, after cursor: Int64, limit: Int) -> StoredPage {
        StoredPage(bounds: pullBounds(of: account), entries: changes(of: account, after: cursor, limit: limit), head: head(of: account))
    }

    public func page(forToken digest: SecretDigest, after cursor: Int64, limit: Int) -> DevicePage? {
        guard let device = device(withToken: digest) else { return nil }
        return DevicePage(device: device, page: device.isRevoked ? nil : page(of: device.account, after: cursor, limit: limit))
    }

    public func earlierEntries(of account: SyncAccountID, after cursor: Int64, limit: Int) -> [EarlierEntry] {
        let after = (accounts[account]?.history ?? []).filter { $0.entry.sequence > cursor }
        return Array(after.sorted { $0.entry.sequence < $1.entry.sequence }.prefix(limit))
    }

    public func purgeHistory(_ retention: HistoryRetention, cutoff: Date) -> Int {
        var purged = 0
        for (id, var state) in accounts {
            let kept = retention.kept(state.history, cutoff: cutoff)
            guard kept.count < state.history.count else { continue }
            purged += state.history.count - kept.count
            state.history = kept
            accounts[id] = state
        }
        return purged
    }

    public func purgeTombstones(changedBefore time: Date) -> Int {
        var purged = 0
        for (id, var state) in accounts {
            let expired = state.entries.values.filter { $0.payload.isDeleted && $0.changedAt < time }
            guard !expired.isEmpty else { continue }
            for entry in expired { state.entries[entry.id] = nil }
            state.horizon = max(state.horizon, expired.map(\.sequence).max() ?? 0)
            purged += expired.count
            accounts[id] = state
        }
        return purged
    }

    /// The quota's count of what an account stores: live entries, and every entry's bytes.
    private static func usage(of state: AccountState) -> StorageUsage {
        StorageUsage(
            entries: state.entries.values.count { !$0.payload.isDeleted },
            bytes: state.entries.values.reduce(0) { $0 + $1.payload.ciphertext.count })
    }
}

extension InMemorySyncServerStore: SyncServerAdministration {
    public func accountSummaries() -> [AccountSummary] {
        accountsInOrder().map { state in
            AccountSummary(
                id: state.record.id, createdAt: state.record.createdAt, activeDevices: state.devices.count { !$0.isRevoked },
                revokedDevices: state.devices.count(where: \.isRevoked), usage: Self.usage(of: state),
                lastChange: state.entries.values.map(\.changedAt).max(), lastSeen: state.devices.compactMap(\.lastSeenAt).max(),
                quota: state.quota)
        }
    }

    public func accountIDs() -> [SyncAccountID] { accountsInOrder().map(\.record.id) }

    /// The accounts as the administration lists them: oldest first, then by id.
    private func accountsInOrder() -> [AccountState] {
        accounts.values.sorted { ($0.record.createdAt, $0.record.id.description) < ($1.record.createdAt, $1.record.id.description) }
    }

    public func setQuota(_ quota: AccountQuota, of account: SyncAccountID) -> Bool {
        guard accounts[account] != nil else { return false }
        accounts[account]?.quota = quota
        return true
    }

    public func addInvitation(_ digest: SecretDigest, createdAt: Date, expiresAt: Date) {
        invitations[digest] = (expiresAt, nil)
    }

    public func deleteAccount(_ id: SyncAccountID) -> Bool {
        attempts.removeAll { $0.account == id }
        return accounts.removeValue(forKey: id) != nil
    }
}
