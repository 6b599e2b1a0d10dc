import Domain
import DomainTestSupport
import Foundation
import Testing

@testable import DataLayer

/// A quiet sync round on a vault opened as a command opens it (the read path): it reads and
/// writes the sync account's row and its chunk of the index alone, each checked against the
/// index, and leaves every other row to the next whole round or full read, which checks them.
@Suite("A quiet sync round on the vault")
struct VaultQuietRoundTests {
    let folder = try! VaultFolder()
    let clock = FixedClock()
    let remote = InMemorySyncRemote()

    /// A vault of accounts 1 to 3 joined to `remote` and synced until its next round is quiet,
    /// then closed.
    private func makeSettledVault() async throws {
        let vault = try folder.create()
        try await VaultAccountDataSource(vault: vault, clock: clock).insertAll((1...3).map { VaultFolder.account($0) })
        let store = VaultSyncStore(vault: vault, clock: clock)
        let enrolment = SyncEnrolment(deviceID: VaultSyncStoreTests.id(901), token: Array(repeating: 1, count: 32))
        try await store.begin(
            SyncMembership(code: VaultSyncStoreTests.code, server: URL(string: "http://127.0.0.1:8787")!, enrolment: enrolment),
            now: clock.now(), joining: false)
        for _ in 0..<2 { _ = try await sync(store) }
        #expect(try await store.quietStart() != nil, "settled: the next round starts quiet")
        try vault.close()
    }

    private func sync(_ store: VaultSyncStore) async throws -> SyncReport {
        clock.advance(by: 1)
        return try await DefaultSyncUseCase(local: store, remote: remote).execute()
    }

    /// `body` with the vault opened again as a command opens it, and its sync store.
    private func withReopened(_ body: (UnlockedVault, VaultSyncStore) async throws -> Void) async throws {
        let vault = try Vault.open(at: folder.path, passphrase: Passphrase("correct horse"))
        defer { try? vault.close() }
        #expect(vault.readsThroughReadPath)
        try await body(vault, VaultSyncStore(vault: vault, clock: clock))
    }

    private func accountRowVersion() throws -> Int { try folder.rows("SELECT version FROM sync_account")[0]["version"] }

    @Test("it reads no entry: a damaged one is left to the next full read, which refuses it; the round is recorded in the row")
    func readsNoEntry() async throws {
        try await makeSettledVault()
        let version = try accountRowVersion()
        try folder.tamper(
            "UPDATE entry SET ciphertext = zeroblob(length(ciphertext)) WHERE id = ?", arguments: [VaultFolder.account(2).id.uuidString])
        try await withReopened { vault, store async throws in
            _ = try await sync(store)
            await #expect(throws: VaultError.modified(.entries)) { try await VaultAccountDataSource(vault: vault).fetchAll() }
        }
        #expect(try accountRowVersion() == version + 1, "the round was recorded in the account's row")
    }

    @Test("the account's row rolled back, or its chunk of the index changed, outside Tokens is refused by the quiet round")
    func accountRowChanged() async throws {
        try await makeSettledVault()
        let old = try folder.rows("SELECT version, nonce, ciphertext FROM sync_account")[0]
        try await withReopened { _, store async throws in _ = try await sync(store) }
        try folder.tamper(
            "UPDATE sync_account SET version = ?, nonce = ?, ciphertext = ?", arguments: [old["version"], old["nonce"], old["ciphertext"]])
        try await withReopened { _, store async throws in
            await #expect(throws: VaultError.modified(.entries)) { try await store.quietStart() }
            await #expect(throws: VaultError.modified(.entries)) { try await sync(store) }
        }

        try await makeSettledVaultAgain()
        try folder.tamper("UPDATE index_chunk SET body = zeroblob(length(body))")
        try await withReopened { _, store async throws in
            await #expect(throws: VaultError.modified(.entries)) { try await store.quietStart() }
        }
    }

    /// A fresh settled vault in place of the one there.
    private func makeSettledVaultAgain() async throws {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: folder.path + suffix) }
        try await makeSettledVault()
    }
}
