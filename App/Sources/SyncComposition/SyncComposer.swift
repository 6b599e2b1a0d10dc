import Domain
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
}
