import AppConfiguration
import DataLayer
import Domain
import Foundation

/// DEV's interactive screen (`make run`): the demo accounts in a vault held in memory, joined to a
/// sync server in the same process, so the screen syncs (header, `s`) with no server, network or
/// disk. The one-shot DEV commands keep `DevContainer`.
package final class DevScreenContainer: SyncingContainer {
    public let phase = Phase.dev
    public let accountRepository: any AccountRepository
    public let hmac: any HMACProvider
    public let clock: any WallClock
    public let random: any RandomSource
    public let syncStore: any SyncLocalStore & SyncMembershipStore
    /// Syncs with the in-process server.
    public let localSync: (any SyncUseCase)?
    private let vault: UnlockedVault

    /// The DEV screen's graph; tests may pass a fixed clock.
    package static func make(clock: (any WallClock)? = nil) async throws -> DevScreenContainer {
        let clock = clock ?? SystemClock()
        let random = SecureRandomSource()
        let vault = try await Vault.inMemory(holding: DemoAccounts.all)
        let store = VaultSyncStore(vault: vault, clock: clock)
        let membership = SyncMembership(
            code: SyncCode(account: random.uuid(), key: SyncKey(bytes: random.bytes(count: SyncKey.byteCount))!),
            server: URL(string: "in-process://dev")!,
            enrolment: SyncEnrolment(deviceID: random.uuid(), token: random.bytes(count: 32)))
        try await store.begin(membership, now: clock.now(), joining: false)
        return DevScreenContainer(vault: vault, store: store, server: InProcessSyncServer(), clock: clock, random: random)
    }

    private init(vault: UnlockedVault, store: VaultSyncStore, server: InProcessSyncServer, clock: any WallClock, random: any RandomSource) {
        self.vault = vault
        self.accountRepository = DefaultAccountRepository(dataSource: VaultAccountDataSource(vault: vault, clock: clock))
        self.syncStore = store
        self.localSync = DefaultSyncUseCase(local: store, remote: server)
        self.hmac = SwiftCryptoHMAC()
        self.clock = clock
        self.random = random
    }

    public func close() throws {
        try vault.close()
    }
}
