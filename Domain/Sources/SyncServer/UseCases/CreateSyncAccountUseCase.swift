/// Opens a sync account under the id and auth key a client drew (the server keeps the key's digest).
public protocol CreateSyncAccountUseCase: Sendable {
    /// `address` is where the request came from, for the rate limit; `invitation`, the one the
    /// client presented, if any (taken only where `SyncLimits.signup` asks for one).
    func execute(account: SyncAccountID, authKey: SyncSecret, address: String, invitation: SyncSecret?) async throws
}

/// CreateSyncAccount over the store: the rate limit first (counted even when the id is taken),
/// then the signup policy. An invitation is taken for the account before it is opened, and may be
/// taken again by the same account (a retried request), by no other.
public struct DefaultCreateSyncAccountUseCase: CreateSyncAccountUseCase {
    private let store: any SyncServerStore
    private let digester: any SecretDigester
    private let clock: any ServerClock
    private let limits: SyncLimits

    public init(store: any SyncServerStore, digester: any SecretDigester, clock: any ServerClock, limits: SyncLimits = SyncLimits()) {
        self.store = store
        self.digester = digester
        self.clock = clock
        self.limits = limits
    }

    public func execute(account: SyncAccountID, authKey: SyncSecret, address: String, invitation: SyncSecret?) async throws {
        let now = clock.now()
        let creations = try await store.recordAccountCreation(
            address: address, at: now, since: now.addingTimeInterval(-Double(limits.accountWindow)))
        try AccountCreationLimit.check(creations, limits: limits)
        switch limits.signup {
        case .open: break
        case .closed: throw SyncServerError.signupClosed
        case .invitation:
            guard let invitation else { throw SyncServerError.invitationRequired }
            guard try await store.takeInvitation(digester.digest(invitation), for: account, at: now) else {
                throw SyncServerError.invitationRefused
            }
        }
        try await store.createAccount(SyncAccountRecord(id: account, authKeyDigest: digester.digest(authKey), createdAt: now))
    }
}
