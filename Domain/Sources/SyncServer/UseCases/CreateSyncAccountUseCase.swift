/// Opens a sync account under the id and auth key a client drew (the server keeps the key's digest).
public protocol CreateSyncAccountUseCase: Sendable {
    func execute(account: SyncAccountID, authKey: SyncSecret) async throws
}

/// CreateSyncAccount over the store.
public struct DefaultCreateSyncAccountUseCase: CreateSyncAccountUseCase {
    private let store: any SyncServerStore
    private let digester: any SecretDigester
    private let clock: any ServerClock

    public init(store: any SyncServerStore, digester: any SecretDigester, clock: any ServerClock) {
        self.store = store
        self.digester = digester
        self.clock = clock
    }

    public func execute(account: SyncAccountID, authKey: SyncSecret) async throws {
        try await store.createAccount(
            SyncAccountRecord(id: account, authKeyDigest: digester.digest(authKey), createdAt: clock.now()))
    }
}
