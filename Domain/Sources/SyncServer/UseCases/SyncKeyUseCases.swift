/// Replaces the account's sync key, as a device of it asks: the old auth key enrols nothing
/// after, the revoked devices' tokens open nothing, and each staying device finds the new key
/// wrapped for it.
public protocol RotateSyncKeyUseCase: Sendable {
    func execute(_ rotation: SyncKeyRotation, for caller: AuthenticatedDevice) async throws
}

/// What a device needs to follow the account's key (`SyncKeyState`).
public protocol SyncKeyStateUseCase: Sendable {
    func execute(for caller: AuthenticatedDevice) async throws -> SyncKeyState
}

/// Gives the calling device its device key, once (a device enrolled before device keys).
public protocol RegisterDeviceKeyUseCase: Sendable {
    func execute(_ key: [UInt8], for caller: AuthenticatedDevice) async throws
}

/// RotateSyncKey over the store: `SyncKeyRules` first, then the store's compare-and-set on the
/// version (a rotation by another device meanwhile is a conflict).
public struct DefaultRotateSyncKeyUseCase: RotateSyncKeyUseCase {
    private let store: any SyncServerStore
    private let digester: any SecretDigester
    private let clock: any ServerClock
    private let limits: SyncLimits

    public init(store: any SyncServerStore, digester: any SecretDigester, clock: any ServerClock, limits: SyncLimits) {
        self.store = store
        self.digester = digester
        self.clock = clock
        self.limits = limits
    }

    public func execute(_ rotation: SyncKeyRotation, for caller: AuthenticatedDevice) async throws {
        guard let account = try await store.account(caller.account) else { throw SyncServerError.unauthorized }
        let devices = try await store.devices(of: caller.account)
        try SyncKeyRules.check(rotation, by: caller.device, current: account.keyVersion, devices: devices, limits: limits)
        let record = SyncKeyRotationRecord(
            keyVersion: rotation.keyVersion, authKeyDigest: digester.digest(rotation.authKey), keyRing: rotation.keyRing,
            revoke: rotation.revoke, wrapped: rotation.wrapped)
        guard try await store.rotateKey(record, of: caller.account, at: clock.now()) else {
            throw SyncServerError.keyConflict("the sync key was replaced meanwhile: fetch it and try again")
        }
    }
}

/// SyncKeyState over the store: only unrevoked devices' keys.
public struct DefaultSyncKeyStateUseCase: SyncKeyStateUseCase {
    private let store: any SyncServerStore
    public init(store: any SyncServerStore) { self.store = store }

    public func execute(for caller: AuthenticatedDevice) async throws -> SyncKeyState {
        guard let account = try await store.account(caller.account) else { throw SyncServerError.unauthorized }
        let devices = try await store.devices(of: caller.account)
        var keys: [DeviceID: [UInt8]] = [:]
        for device in devices where !device.isRevoked {
            if let key = device.deviceKey { keys[device.id] = key }
        }
        let wrapped = try await store.wrappedKey(for: caller.device, of: caller.account)
        return SyncKeyState(
            keyVersion: account.keyVersion, keyRing: account.keyRing,
            wrapped: wrapped?.keyVersion == account.keyVersion ? wrapped : nil, deviceKeys: keys)
    }
}

/// RegisterDeviceKey over the store: another key than the one given before is a conflict.
public struct DefaultRegisterDeviceKeyUseCase: RegisterDeviceKeyUseCase {
    private let store: any SyncServerStore
    private let limits: SyncLimits

    public init(store: any SyncServerStore, limits: SyncLimits) {
        self.store = store
        self.limits = limits
    }

    public func execute(_ key: [UInt8], for caller: AuthenticatedDevice) async throws {
        try SyncKeyRules.checkDeviceKey(key, limits: limits)
        guard try await store.setDeviceKey(key, for: caller.device, of: caller.account) else {
            throw SyncServerError.keyConflict("this device has another device key already")
        }
    }
}
