import Foundation

/// One sync of this machine over a connection, following the account's sync key: a machine
/// enrolled before device keys registers one first (once; a server that does not know them is
/// left alone), a refusal as revoked is remembered (so that `sync status` says so without asking
/// the server), and a pull that finds the key replaced on another machine takes the new key
/// (wrapped for this device, or this machine's code when it joined with the new one) and syncs
/// again under it. A pull that finds the server's key older than this machine's (its data restored
/// from a backup taken before a replacement) gives the replacements back first, with the
/// revocations this machine knows. Every command and the screen sync through here.
public struct SyncRoundUseCase: Sendable {
    private let store: any SyncLocalStore & SyncMembershipStore
    private let keys: SyncKeyUseCase

    public init(store: any SyncLocalStore & SyncMembershipStore, keys: SyncKeyUseCase) {
        self.store = store
        self.keys = keys
    }

    public func run(_ membership: SyncMembership, over connection: any SyncServerConnection) async throws -> SyncReport {
        var membership = membership
        if membership.keys.deviceSecret == nil {
            membership = (try? await keys.registerDeviceKey(remote: connection.remote(for: membership))) ?? membership
        }
        do {
            return try await DefaultSyncUseCase(local: store, remote: connection.remote(for: membership)).execute()
        } catch SyncError.revoked {
            try? await store.recordRevoked()
            throw SyncError.revoked
        } catch SyncError.keyChanged {
            membership = try await keys.follow(remote: connection.remote(for: membership))
            return try await DefaultSyncUseCase(local: store, remote: connection.remote(for: membership)).execute()
        } catch SyncError.serverKeyBehind {
            let remote = connection.remote(for: membership)
            let given = try await keys.giveBack(remote: remote)
            var report = try await DefaultSyncUseCase(local: store, remote: remote).execute()
            report.keysGivenBack = given
            return report
        }
    }
}
