import AppConfiguration
import DataLayer
import Domain

/// The DEV phase: the demo accounts in memory, real crypto and the system clock. Nothing is
/// written to disk.
public struct DevContainer: AppContainer {
    public let phase = Phase.dev
    public let accountRepository: any AccountRepository
    public let hmac: any HMACProvider
    public let clock: any WallClock
    public let random: any RandomSource

    /// The DEV graph; tests may pass a fixed clock.
    public init(clock: (any WallClock)? = nil) {
        self.accountRepository = DefaultAccountRepository(
            dataSource: InMemoryAccountDataSource(accounts: DemoAccounts.all))
        self.hmac = SwiftCryptoHMAC()
        self.clock = clock ?? SystemClock()
        self.random = SecureRandomSource()
    }

    public func close() throws {}
}
