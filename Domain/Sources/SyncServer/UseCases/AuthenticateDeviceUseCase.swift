/// Turns a bearer token into the device and account it stands for, or refuses it.
public protocol AuthenticateDeviceUseCase: Sendable {
    func execute(token: SyncSecret) async throws -> AuthenticatedDevice
    /// The device of a token, to decide whether a request's body may be read before the request
    /// checks its token in its own write: one the store vouched for lately may be taken on that
    /// word (`RecentDevices`: a revocation since is caught by that check), any other token is
    /// authenticated as `execute` does.
    func admit(token: SyncSecret) async throws -> AuthenticatedDevice
}

extension AuthenticateDeviceUseCase {
    /// Every token authenticated in the store.
    public func admit(token: SyncSecret) async throws -> AuthenticatedDevice { try await execute(token: token) }
}

/// AuthenticateDevice over the store: looked up on every request, so a revocation holds at once
/// on every server instance. The device is noted as seen in `activity`, when given. `recent`,
/// when given, keeps the devices the store vouched for, for `admit`.
public struct DefaultAuthenticateDeviceUseCase: AuthenticateDeviceUseCase {
    private let store: any SyncServerStore
    private let digester: any SecretDigester
    private let activity: DeviceActivity?
    private let recent: RecentDevices?

    public init(store: any SyncServerStore, digester: any SecretDigester, activity: DeviceActivity? = nil, recent: RecentDevices? = nil) {
        self.store = store
        self.digester = digester
        self.activity = activity
        self.recent = recent
    }

    public func execute(token: SyncSecret) async throws -> AuthenticatedDevice {
        try await authenticated(digester.digest(token))
    }

    public func admit(token: SyncSecret) async throws -> AuthenticatedDevice {
        let digest = digester.digest(token)
        if let recent, let device = await recent.device(for: digest) { return device }
        return try await authenticated(digest)
    }

    /// The device of a token's digest, asked of the store.
    private func authenticated(_ digest: SecretDigest) async throws -> AuthenticatedDevice {
        guard let device = try await store.device(withToken: digest) else { throw SyncServerError.unauthorized }
        guard !device.isRevoked else { throw SyncServerError.deviceRevoked }
        let caller = AuthenticatedDevice(account: device.account, device: device.id)
        await activity?.saw(caller)
        await recent?.vouched(caller, for: digest)
        return caller
    }
}
