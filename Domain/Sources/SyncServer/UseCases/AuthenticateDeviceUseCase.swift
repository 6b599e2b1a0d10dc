/// Turns a bearer token into the device and account it stands for, or refuses it.
public protocol AuthenticateDeviceUseCase: Sendable {
    func execute(token: SyncSecret) async throws -> AuthenticatedDevice
}

/// AuthenticateDevice over the store: looked up on every request, so a revocation holds at once
/// on every server instance. The device is noted as seen in `activity`, when given.
public struct DefaultAuthenticateDeviceUseCase: AuthenticateDeviceUseCase {
    private let store: any SyncServerStore
    private let digester: any SecretDigester
    private let activity: DeviceActivity?

    public init(store: any SyncServerStore, digester: any SecretDigester, activity: DeviceActivity? = nil) {
        self.store = store
        self.digester = digester
        self.activity = activity
    }

    public func execute(token: SyncSecret) async throws -> AuthenticatedDevice {
        guard let device = try await store.device(withToken: digester.digest(token)) else { throw SyncServerError.unauthorized }
        guard !device.isRevoked else { throw SyncServerError.deviceRevoked }
        let caller = AuthenticatedDevice(account: device.account, device: device.id)
        await activity?.saw(caller)
        return caller
    }
}
