import Foundation

/// What `tokens-server admin` does: accounts and devices named as an operator types them
/// (`AdminReference`), listed, revoked or deleted on the store the server serves from.
public protocol AdministerServerUseCase: Sendable {
    /// Every account, oldest first.
    func accounts() async throws -> [AccountSummary]
    /// The account `reference` names.
    func account(_ reference: String) async throws -> AccountSummary
    /// The account `reference` names, with its devices in enrolment order.
    func devices(ofAccount reference: String) async throws -> (account: SyncAccountID, devices: [SyncDevice])
    /// Revokes the device `device` names in the account `account` names; the device as it is
    /// now (one revoked before keeps its first revocation's time).
    func revoke(device: String, ofAccount account: String) async throws -> SyncDevice
    /// Deletes the account `reference` names and all it stored; what it held.
    func deleteAccount(_ reference: String) async throws -> AccountSummary
    /// Changes the quota of the account `reference` names, part by part; the account as it is
    /// then.
    func changeQuota(_ change: AccountQuotaChange, ofAccount reference: String) async throws -> AccountSummary
    /// A new single-use invitation, valid for `seconds`: the code (shown once, kept only as its
    /// digest) and when it expires.
    func invite(validFor seconds: Int64) async throws -> (code: SyncSecret, expiresAt: Date)
}

/// AdministerServer over the store and its administration port.
public struct DefaultAdministerServerUseCase: AdministerServerUseCase {
    private let store: any SyncServerStore
    private let administration: any SyncServerAdministration
    private let clock: any ServerClock
    private let random: any ServerRandomSource
    private let digester: any SecretDigester

    public init(
        store: any SyncServerStore, administration: any SyncServerAdministration, clock: any ServerClock,
        random: any ServerRandomSource, digester: any SecretDigester
    ) {
        self.store = store
        self.administration = administration
        self.clock = clock
        self.random = random
        self.digester = digester
    }

    public func invite(validFor seconds: Int64) async throws -> (code: SyncSecret, expiresAt: Date) {
        let code = random.secret()
        let now = clock.now()
        let expiresAt = now.addingTimeInterval(Double(seconds))
        try await administration.addInvitation(digester.digest(code), createdAt: now, expiresAt: expiresAt)
        return (code, expiresAt)
    }

    public func accounts() async throws -> [AccountSummary] {
        try await administration.accountSummaries()
    }

    public func devices(ofAccount reference: String) async throws -> (account: SyncAccountID, devices: [SyncDevice]) {
        let account = try AdminReference.account(reference, among: try await administration.accountIDs())
        return (account, try await store.devices(of: account))
    }

    public func revoke(device: String, ofAccount account: String) async throws -> SyncDevice {
        let (id, devices) = try await devices(ofAccount: account)
        var chosen = try AdminReference.device(device, among: devices)
        let now = clock.now()
        guard try await store.revokeDevice(chosen.id, of: id, at: now) else { throw AdministrationError.noDevice(device) }
        chosen.revokedAt = chosen.revokedAt ?? now
        return chosen
    }

    public func deleteAccount(_ reference: String) async throws -> AccountSummary {
        let chosen = try await account(reference)
        guard try await administration.deleteAccount(chosen.id) else { throw AdministrationError.noAccount(reference) }
        return chosen
    }

    public func changeQuota(_ change: AccountQuotaChange, ofAccount reference: String) async throws -> AccountSummary {
        let chosen = try await account(reference)
        let quota = change.applied(to: chosen.quota)
        guard quota != chosen.quota else { return chosen }
        guard try await administration.setQuota(quota, of: chosen.id) else { throw AdministrationError.noAccount(reference) }
        return chosen.with(quota: quota)
    }

    public func account(_ reference: String) async throws -> AccountSummary {
        let summaries = try await administration.accountSummaries()
        let id = try AdminReference.account(reference, among: summaries.map(\.id))
        guard let chosen = summaries.first(where: { $0.id == id }) else { throw AdministrationError.noAccount(reference) }
        return chosen
    }
}
