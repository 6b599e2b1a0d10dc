import Foundation

/// What a revocation did to the sync key.
public struct KeyRotationReport: Equatable, Sendable {
    /// The new key's version.
    public let version: Int
    /// The machines the new key was wrapped for (this one included).
    public let sharedWith: Int
    /// Machines that stay but have no device key bound to the sync key (they enrolled with an
    /// older Tokens and have not synced since): they must join again with the new code.
    public let notShared: [UUID]

    public init(version: Int, sharedWith: Int, notShared: [UUID]) {
        self.version = version
        self.sharedWith = sharedWith
        self.notShared = notShared
    }
}

/// The sync key's life on this machine: a device key registered once, the account's key
/// followed when another machine replaced it, and a revocation that replaces it. The new key
/// is drawn from the injected randomness and reaches the other machines only wrapped to their
/// device keys: the server never holds it, and the revoked machine cannot open it.
public struct SyncKeyUseCase: Sendable {
    private let store: any SyncMembershipStore
    private let sealing: any SyncKeySealing
    private let random: any RandomSource

    public init(store: any SyncMembershipStore, sealing: any SyncKeySealing, random: any RandomSource) {
        self.store = store
        self.sealing = sealing
        self.random = random
    }

    /// A device secret for a new enrolment, and the device key to enrol with.
    public func newDeviceKey(for code: SyncCode) -> (secret: SyncKey, deviceKey: [UInt8]) {
        let secret = SyncKey(bytes: random.bytes(count: SyncKey.byteCount))!
        return (secret, sealing.deviceKey(secret: secret, code: code))
    }

    /// Gives this device a device key when it has none (it enrolled with an older Tokens).
    @discardableResult
    public func registerDeviceKey(remote: any SyncKeysRemote) async throws -> SyncMembership {
        let membership = try await current()
        guard membership.keys.deviceSecret == nil else { return membership }
        let (secret, deviceKey) = newDeviceKey(for: membership.code)
        try await remote.registerDeviceKey(deviceKey)
        let updated = membership.with(code: membership.code, keys: membership.keys.with(deviceSecret: secret))
        try await store.replace(with: updated, resend: false)
        return updated
    }

    /// Takes the account's current key when the server holds a newer one than this machine:
    /// either this machine's code already is it (it joined with the new code), or it was
    /// wrapped for this device by the machine that replaced it. `.keyNotShared` otherwise.
    /// The devices the account lists revoked then are remembered (see `giveBack`).
    @discardableResult
    public func follow(remote: any SyncKeysRemote & SyncDevicesRemote) async throws -> SyncMembership {
        try await following(remote: remote).membership
    }

    /// `follow`, with the key state it read (a rotation goes on from it without asking again).
    private func following(
        remote: any SyncKeysRemote & SyncDevicesRemote
    ) async throws -> (membership: SyncMembership, state: RemoteKeyState) {
        let membership = try await current()
        let state = try await remote.keyState()
        guard state.version > membership.keys.version else { return (membership, state) }
        let account = membership.code.account
        let key: SyncKey
        var earlier = membership.allKeys
        if let ring = state.keyRing, let keys = sealing.openRing(ring, under: membership.code.key, version: state.version, account: account)
        {
            // Joined with the new code: the code's key is the current one, not that of the version
            // this machine took it for; the ring names the earlier ones.
            key = membership.code.key
            earlier = keys.merging(membership.keys.earlier) { ring, _ in ring }
        } else if let wrapped = state.wrapped, let secret = membership.keys.deviceSecret,
            let unwrapped = sealing.unwrap(
                wrapped, version: state.version, device: membership.enrolment.deviceID, account: account, secret: secret,
                previous: membership.allKeys)
        {
            key = unwrapped
            if let ring = state.keyRing, let keys = sealing.openRing(ring, under: key, version: state.version, account: account) {
                earlier.merge(keys) { mine, _ in mine }
            }
        } else {
            throw SyncError.keyNotShared
        }
        earlier[state.version] = nil
        let revoked = try await remote.devices().filter { $0.revokedAt != nil }.map(\.id)
        let updated = membership.with(
            code: SyncCode(account: account, key: key),
            keys: SyncKeyChain(
                version: state.version, earlier: earlier, deviceSecret: membership.keys.deviceSecret,
                revoked: membership.keys.revoked.union(revoked)))
        try await store.replace(with: updated, resend: false)
        return (updated, state)
    }

    /// Revokes another machine and replaces the sync key (see `rotate`). `.unknownDevice` when
    /// the account has no such machine.
    public func revoke(_ device: UUID, remote: any SyncKeysRemote & SyncDevicesRemote) async throws -> KeyRotationReport {
        try await rotate(revoking: device, remote: remote)
    }

    /// Replaces the sync key, revoking `device` if one is named: a new key one version on,
    /// wrapped for every machine that stays and has a device key bound to the sync key, with the
    /// earlier keys sealed under it; the server then refuses the old code, and every entry here
    /// is sent again under the new key. After `passwd`, or when the code may have been seen.
    public func rotate(revoking device: UUID? = nil, remote: any SyncKeysRemote & SyncDevicesRemote) async throws -> KeyRotationReport {
        try await registerDeviceKey(remote: remote)
        let (membership, state) = try await following(remote: remote)
        let devices = try await remote.devices()
        if let device, !devices.contains(where: { $0.id == device }) { throw SyncError.unknownDevice }
        let account = membership.code.account
        let all = membership.allKeys
        let version = state.version + 1
        let key = SyncKey(bytes: random.bytes(count: SyncKey.byteCount))!
        var wrapped: [UUID: [UInt8]] = [:]
        for (id, deviceKey) in state.deviceKeys where id != device && sealing.isBound(deviceKey, account: account, keys: all) {
            wrapped[id] = try sealing.wrap(
                key, version: version, for: deviceKey, device: id, account: account, previous: membership.code.key)
        }
        let staying = devices.filter { $0.revokedAt == nil && $0.id != device }.map(\.id)
        let code = SyncCode(account: account, key: key)
        let rotation = RemoteKeyRotation(
            code: code, version: version, keyRing: try sealing.sealRing(all, under: key, version: version, account: account),
            revoke: device.map { [$0] } ?? [], wrapped: wrapped)
        try await remote.rotate(rotation)
        let revoked = devices.filter { $0.revokedAt != nil }.map(\.id) + (device.map { [$0] } ?? [])
        let updated = membership.with(
            code: code,
            keys: SyncKeyChain(
                version: version, earlier: all, deviceSecret: membership.keys.deviceSecret,
                revoked: membership.keys.revoked.union(revoked)))
        try await store.replace(with: updated, resend: true)
        return KeyRotationReport(version: version, sharedWith: wrapped.count, notShared: staying.filter { wrapped[$0] == nil })
    }

    /// Gives the server back the replacements of the sync key it lost (its data restored from a
    /// backup taken before them): each version it lacks, one after the other, as the machine that
    /// made it sent it (the key, the earlier keys sealed under it, the key wrapped for each machine
    /// that stays), the first revoking again every device of the account this machine knows revoked.
    /// So the old code enrols nothing and a revoked machine's token opens nothing, as before the
    /// restore. Returns how many versions it gave back (0: the server was not behind);
    /// `.serverKeyBehind` when this machine lacks one of the keys.
    @discardableResult
    public func giveBack(remote: any SyncKeysRemote & SyncDevicesRemote) async throws -> Int {
        let membership = try await current()
        let account = membership.code.account
        let all = membership.allKeys
        let devices = try await remote.devices()
        let known = Set(devices.map(\.id))
        let revoke = membership.keys.revoked
            .filter { known.contains($0) && $0 != membership.enrolment.deviceID }
            .subtracting(devices.filter { $0.revokedAt != nil }.map(\.id))
        var given = 0
        var attempts = 0
        while true {
            let state = try await remote.keyState()
            guard state.version < membership.keys.version else { break }
            let version = state.version + 1
            guard let key = all[version], let previous = all[state.version] else { throw SyncError.serverKeyBehind }
            var wrapped: [UUID: [UInt8]] = [:]
            for (id, deviceKey) in state.deviceKeys
            where !membership.keys.revoked.contains(id) && sealing.isBound(deviceKey, account: account, keys: all) {
                wrapped[id] = try sealing.wrap(key, version: version, for: deviceKey, device: id, account: account, previous: previous)
            }
            let rotation = RemoteKeyRotation(
                code: SyncCode(account: account, key: key), version: version,
                keyRing: try sealing.sealRing(all.filter { $0.key < version }, under: key, version: version, account: account),
                revoke: given == 0 ? revoke.sorted { $0.ordersBefore($1) } : [], wrapped: wrapped)
            do {
                try await remote.rotate(rotation)
                given += 1
            } catch let error {
                // Another machine gave it back (or rotated) meanwhile: read the state again.
                attempts += 1
                guard error == .keyConflict, attempts <= 3 else { throw error }
            }
        }
        let listed = devices.filter { $0.revokedAt != nil }.map(\.id)
        if !Set(listed).isSubset(of: membership.keys.revoked) {
            try await store.replace(
                with: membership.with(code: membership.code, keys: membership.keys.with(revoked: listed)), resend: false)
        }
        return given
    }

    private func current() async throws -> SyncMembership {
        guard let membership = try await store.membership() else { throw SyncError.notSetUp }
        return membership
    }
}
