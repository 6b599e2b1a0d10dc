/// Turns a bearer token into the device and account it stands for, or refuses it.
public protocol AuthenticateDeviceUseCase: Sendable {
    func execute(token: SyncSecret) async throws -> AuthenticatedDevice
}

/// AuthenticateDevice over the store: looked up on every request, so a revocation holds at once
/// on every server instance.
public struct DefaultAuthenticateDeviceUseCase: AuthenticateDeviceUseCase {
    private let store: any SyncServerStore
    private let digester: any SecretDigester

    public init(store: any SyncServerStore, digester: any SecretDigester) {
        self.store = store
        self.digester = digester
    }

    public func execute(token: SyncSecret) async throws -> AuthenticatedDevice {
        guard let device = try await store.device(withToken: digester.digest(token)) else { throw SyncServerError.unauthorized }
        guard !device.isRevoked else { throw SyncServerError.deviceRevoked }
        return AuthenticatedDevice(account: device.account, device: device.id)
    }
}
