import Domain
import Foundation
import Synchronization
import Testing

@testable import DataLayer

/// The screen's vault runs App's automatic backup as it closes, only after a change.
@Suite("The screen's vault as it closes")
struct LockableVaultClosingTests {
    let folder = try! VaultFolder()

    /// A hook that counts its calls, failing when `failing`.
    final class Hook: Sendable {
        let calls = Mutex(0)
        let failing: Bool
        init(failing: Bool = false) { self.failing = failing }
        func run(_ vault: UnlockedVault) throws {
            calls.withLock { $0 += 1 }
            if failing { throw VaultError.backupUnverified(path: "/b/vault-1.sqlite", reason: "its folder cannot be made") }
        }
    }

    @Test("a change then quitting or locking runs the hook on the open vault; a session that only read does not")
    func runsAfterAChange() async throws {
        try await folder.makeClosedVault()
        let hook = Hook()
        let store = LockableVaultDataSource(path: folder.path, whenChanged: { try hook.run($0) })
        try await store.unlock(passphrase: Array("correct horse".utf8))
        _ = try await store.fetchAll()
        await store.close()
        #expect(hook.calls.withLock { $0 } == 0)
        try await store.unlock(passphrase: Array("correct horse".utf8))
        try await store.insert(VaultFolder.account(3))
        await store.lock()
        #expect(hook.calls.withLock { $0 } == 1)
        #expect(await store.takeNotices().isEmpty)
    }

    @Test("a hook that fails leaves the vault closed as usual and its error kept, once, for the screen's end")
    func keepsFailures() async throws {
        try await folder.makeClosedVault()
        let store = LockableVaultDataSource(path: folder.path, whenChanged: { try Hook(failing: true).run($0) })
        try await store.unlock(passphrase: Array("correct horse".utf8))
        try await store.insert(VaultFolder.account(3))
        await store.close()
        await #expect(throws: VaultError.locked) { try await store.fetchAll() }
        #expect(await store.takeNotices().count == 1)
        #expect(await store.takeNotices().isEmpty)
        try await store.unlock(passphrase: Array("correct horse".utf8))
        #expect(try await store.fetchAll().count == 3)
        await store.close()
    }
}
