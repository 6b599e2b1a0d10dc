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
    public let clock: any ServerClock

    public init(
        createAccount: any CreateSyncAccountUseCase, enrolDevice: any EnrolDeviceUseCase,
        authenticate: any AuthenticateDeviceUseCase, listDevices: any ListDevicesUseCase,
        revokeDevice: any RevokeDeviceUseCase, push: any PushChangesUseCase, pull: any PullChangesUseCase,
        clock: any ServerClock
    ) {
        self.createAccount = createAccount
        self.enrolDevice = enrolDevice
        self.authenticate = authenticate
        self.listDevices = listDevices
        self.revokeDevice = revokeDevice
        self.push = push
        self.pull = pull
        self.clock = clock
    }
}
