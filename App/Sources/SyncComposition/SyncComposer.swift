import Domain
import Foundation
import SyncRemoteData

/// The sync client's use cases with Data's real parts (the key sealing), for the command line
/// and the screen.
public enum SyncComposer {
    public static func makeSetupUseCase(store: any SyncMembershipStore, random: any RandomSource, clock: any WallClock) -> SyncSetupUseCase
    {
        SyncSetupUseCase(store: store, random: random, clock: clock, sealing: SyncKeySealer())
    }

    /// A sync of `store` with `remote` (a round, or its dry run).
    public static func makeSyncUseCase(store: any SyncLocalStore, remote: any SyncRemote) -> DefaultSyncUseCase {
        DefaultSyncUseCase(local: store, remote: remote)
    }

    public static func makeKeyUseCase(store: any SyncMembershipStore, random: any RandomSource) -> SyncKeyUseCase {
        SyncKeyUseCase(store: store, sealing: SyncKeySealer(), random: random)
    }

    /// One sync of this machine over a connection, following the account's sync key.
    public static func makeRoundUseCase(store: any SyncLocalStore & SyncMembershipStore, random: any RandomSource) -> SyncRoundUseCase {
        SyncRoundUseCase(store: store, keys: makeKeyUseCase(store: store, random: random))
    }

    /// The screen's background sync: the membership read at each sync, one connection kept per
    /// server, each request bounded by `timeout`, the server's time measured against `clock`.
    public static func makeMembershipSyncUseCase(
        store: any SyncLocalStore & SyncMembershipStore, random: any RandomSource, clock: any WallClock, caFile: String?,
        timeout: Duration = .seconds(30)
    ) -> MembershipSyncUseCase {
        MembershipSyncUseCase(
            store: store, round: makeRoundUseCase(store: store, random: random), connector: SyncConnector(timeout: timeout, clock: clock),
            caFile: caFile)
    }
}
