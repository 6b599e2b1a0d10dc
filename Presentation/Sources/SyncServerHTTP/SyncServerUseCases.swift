import SyncServer

/// What the HTTP interface needs from the server's rules: one use case per operation, built by
/// App's composition root for the phase's store.
public struct SyncServerUseCases: Sendable {
    public let createAccount: any CreateSyncAccountUseCase
    public let enrolDevice: any EnrolDeviceUseCase
    public let authenticate: any AuthenticateDeviceUseCase
    public let listDevices: any ListDevicesUseCase
    public let revokeDevice: any RevokeDeviceUseCase
    public let push: any PushChangesUseCase
    public let pull: any PullChangesUseCase
    public let history: any ReadHistoryUseCase
    public let keys: SyncKeyUseCases
    public let readiness: any CheckReadinessUseCase
    public let clock: any ServerClock

    public init(
        createAccount: any CreateSyncAccountUseCase, enrolDevice: any EnrolDeviceUseCase,
        authenticate: any AuthenticateDeviceUseCase, listDevices: any ListDevicesUseCase,
        revokeDevice: any RevokeDeviceUseCase, push: any PushChangesUseCase, pull: any PullChangesUseCase,
        history: any ReadHistoryUseCase, keys: SyncKeyUseCases, readiness: any CheckReadinessUseCase, clock: any ServerClock
    ) {
        self.readiness = readiness
        self.keys = keys
        self.createAccount = createAccount
        self.enrolDevice = enrolDevice
        self.authenticate = authenticate
        self.listDevices = listDevices
        self.revokeDevice = revokeDevice
        self.push = push
        self.pull = pull
        self.history = history
        self.clock = clock
    }
}

/// The use cases of the account's sync key: its state for a device, a rotation, a device key.
public struct SyncKeyUseCases: Sendable {
    public let state: any SyncKeyStateUseCase
    public let rotate: any RotateSyncKeyUseCase
    public let registerDeviceKey: any RegisterDeviceKeyUseCase

    public init(state: any SyncKeyStateUseCase, rotate: any RotateSyncKeyUseCase, registerDeviceKey: any RegisterDeviceKeyUseCase) {
        self.state = state
        self.rotate = rotate
        self.registerDeviceKey = registerDeviceKey
    }
}
