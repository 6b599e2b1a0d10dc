/// Enrols a machine that proves it holds the account's auth key, handing it a new bearer token.
public protocol EnrolDeviceUseCase: Sendable {
    /// `address` is where the request came from, for the rate limit; `deviceKey` the machine's
    /// own key, sealed by it to the sync key (see `SyncDevice.deviceKey`), if it sends one.
    func execute(account: SyncAccountID, authKey: SyncSecret, name: String, deviceKey: [UInt8]?, address: String) async throws -> Enrolment
}

/// EnrolDevice over the store: rate limit first (counted even when the key is wrong), then the
/// key, then the device limit.
public struct DefaultEnrolDeviceUseCase: EnrolDeviceUseCase {
    private let store: any SyncServerStore
    private let digester: any SecretDigester
    private let clock: any ServerClock
    private let random: any ServerRandomSource
    private let limits: SyncLimits

    public init(
        store: any SyncServerStore, digester: any SecretDigester, clock: any ServerClock,
        random: any ServerRandomSource, limits: SyncLimits
    ) {
        self.store = store
        self.digester = digester
        self.clock = clock
        self.random = random
        self.limits = limits
    }

    public func execute(
        account: SyncAccountID, authKey: SyncSecret, name: String, deviceKey: [UInt8]?, address: String
    ) async throws -> Enrolment {
        try DeviceName.check(name)
        if let deviceKey { try SyncKeyRules.checkDeviceKey(deviceKey, limits: limits) }
        let now = clock.now()
        let attempts = try await store.recordEnrolmentAttempt(
            account: account, address: address, at: now, since: now.addingTimeInterval(-Double(limits.enrolmentWindow)))
        try EnrolmentLimit.check(accountAttempts: attempts.forAccount, addressAttempts: attempts.fromAddress, limits: limits)
        guard let record = try await store.account(account), record.authKeyDigest.matches(digester.digest(authKey)) else {
            throw SyncServerError.unauthorized
        }
        let enrolment = Enrolment(device: DeviceID(random.uuid()), token: random.secret())
        let device = SyncDevice(
            id: enrolment.device, account: account, name: name, tokenDigest: digester.digest(enrolment.token), enrolledAt: now,
            deviceKey: deviceKey)
        guard try await store.addDevice(device, limit: limits.devicesPerAccount) else {
            throw SyncServerError.tooManyDevices(limit: limits.devicesPerAccount)
        }
        return enrolment
    }
}

/// A device's name: the protocol's rule (`DeviceNameRule`), refused as invalid.
public enum DeviceName {
    public static func check(_ name: String) throws(SyncServerError) {
        do { try DeviceNameRule.check(name) } catch { throw .invalid(error.description) }
    }
}
