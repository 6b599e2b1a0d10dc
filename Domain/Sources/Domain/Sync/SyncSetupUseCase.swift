import Foundation

/// Opening a sync account, joining one, and leaving it. The sync code and the device secret are
/// made here from the injected randomness; the server is reached only through the ports the caller hands in (built
/// for that code), and the vault learns the membership only once the server has enrolled us.
public struct SyncSetupUseCase: Sendable {
    private let store: any SyncMembershipStore
    private let random: any RandomSource
    private let clock: any WallClock
    private let sealing: any SyncKeySealing

    public init(store: any SyncMembershipStore, random: any RandomSource, clock: any WallClock, sealing: any SyncKeySealing) {
        self.store = store
        self.random = random
        self.clock = clock
        self.sealing = sealing
    }

    /// A fresh sync account: a random account id and a random 256-bit sync key.
    public func newCode() -> SyncCode {
        SyncCode(account: random.uuid(), key: SyncKey(bytes: random.bytes(count: SyncKey.byteCount))!)
    }

    /// Opens the account of `code` on the server (presenting `invitation`, where the server asks
    /// for one), enrols this machine as `deviceName`, and marks every entry to be sent by the next
    /// sync. `caFile` is remembered with the server.
    public func open(
        _ code: SyncCode, server: URL, caFile: String? = nil, deviceName: String, invitation: SyncInvitation? = nil,
        remote: any SyncAccountRemote
    ) async throws -> SyncMembership {
        try await requireNoMembership()
        try await remote.createAccount(invitation: invitation)
        return try await enrol(code, server: server, caFile: caFile, deviceName: deviceName, remote: remote, joining: false)
    }

    /// Enrols this machine in the existing account of `code`; the next sync merges both sides.
    public func join(
        _ code: SyncCode, server: URL, caFile: String? = nil, deviceName: String, remote: any SyncAccountRemote
    ) async throws -> SyncMembership {
        try await requireNoMembership()
        return try await enrol(code, server: server, caFile: caFile, deviceName: deviceName, remote: remote, joining: true)
    }

    /// Revokes this device on the server (its token then opens nothing) and forgets the
    /// membership here; the entries stay. Offline, the membership is still forgotten: the result
    /// says the server was not told (another machine can revoke this one).
    @discardableResult
    public func leave(devices: any SyncDevicesRemote) async throws -> Bool {
        guard let membership = try await store.membership() else { throw SyncError.notSetUp }
        var told = true
        do {
            try await devices.revoke(membership.enrolment.deviceID)
        } catch .revoked, .unknownDevice {
            // Already gone there.
        } catch {
            told = false
        }
        try await store.end()
        return told
    }

    private func requireNoMembership() async throws {
        if try await store.membership() != nil { throw SyncError.alreadySetUp }
    }

    private func enrol(
        _ code: SyncCode, server: URL, caFile: String?, deviceName: String, remote: any SyncAccountRemote, joining: Bool
    ) async throws -> SyncMembership {
        // The device key a later sync key is wrapped to; its secret stays in the vault.
        let (secret, deviceKey) = SyncKeyUseCase(store: store, sealing: sealing, random: random).newDeviceKey(for: code)
        let enrolment = try await remote.enrol(deviceName: deviceName, deviceKey: deviceKey)
        let membership = SyncMembership(
            code: code, server: server, enrolment: enrolment, caFile: caFile, keys: SyncKeyChain(deviceSecret: secret))
        try await store.begin(membership, now: clock.now(), joining: joining)
        return membership
    }
}
