/// The devices of the caller's account.
public protocol ListDevicesUseCase: Sendable {
    func execute(for caller: AuthenticatedDevice) async throws -> [SyncDevice]
}

/// Revokes one of the caller's account's devices (the caller itself included: leaving).
public protocol RevokeDeviceUseCase: Sendable {
    func execute(_ device: DeviceID, for caller: AuthenticatedDevice) async throws
}

/// ListDevices over the store.
public struct DefaultListDevicesUseCase: ListDevicesUseCase {
    private let store: any SyncServerStore
    public init(store: any SyncServerStore) { self.store = store }

    public func execute(for caller: AuthenticatedDevice) async throws -> [SyncDevice] {
        try await store.devices(of: caller.account)
    }
}

/// RevokeDevice over the store: another account's device is "not found", never touched.
public struct DefaultRevokeDeviceUseCase: RevokeDeviceUseCase {
    private let store: any SyncServerStore
    private let clock: any ServerClock

    public init(store: any SyncServerStore, clock: any ServerClock) {
        self.store = store
        self.clock = clock
    }

    public func execute(_ device: DeviceID, for caller: AuthenticatedDevice) async throws {
        guard try await store.revokeDevice(device, of: caller.account, at: clock.now()) else {
            throw SyncServerError.deviceNotFound
        }
    }
}
