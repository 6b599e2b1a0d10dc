import Domain
import Foundation
import GRDB

extension Vault {
    /// A vault in memory (DEV's screen): the same schema, sealing, manifest and sync state as a
    /// file, under a random master key and no key slot, holding `accounts`. Nothing touches
    /// the disk; it is gone when closed.
    public static func inMemory(holding accounts: [Account]) async throws -> UnlockedVault {
        let database = try DatabaseQueue(configuration: VaultDatabase.configuration())
        try VaultSchema.migrator.migrate(database)
        let vaultID = Data(VaultCrypto.randomBytes(16))
        let keys = VaultKeys.fresh(vaultID: vaultID)
        let header = try await database.write { db in try writeEmpty(in: db, vaultID: vaultID, slots: [], keys: keys) }
        let vault = UnlockedVault(database: database, path: ":memory:", keys: keys, header: header)
        try await VaultAccountDataSource(vault: vault).insertAll(accounts)
        return vault
    }
}
