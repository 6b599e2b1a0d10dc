import AppComposition
import DataLayer
import Testing

/// The exit status a script sees for each vault failure: 4 for a wrong passphrase, 5 for a vault
/// that is damaged or was modified outside Tokens.
@Suite("Failure kinds")
struct FailureKindTests {
    @Test(
        "modified, tampered, damaged and foreign vaults are 'damaged vault' (status 5)",
        arguments: [
            VaultError.modified(.entries), .modified(.foreignSchema(kind: "trigger", name: "t")), .modified(.schemaChanged),
            .modified(.writeIgnored), .headerTampered, .entryDamaged(id: "x"), .notAVault(path: "p"),
            .damaged(path: "p", reason: "r"),
        ])
    func damaged(error: VaultError) {
        #expect(FailureKind(of: error) == .damagedVault)
    }

    @Test("a wrong passphrase is its own kind; a passphrase changed by another tokens or a newer format is neither")
    func others() {
        #expect(FailureKind(of: VaultError.wrongPassphrase) == .wrongPassphrase)
        #expect(FailureKind(of: VaultError.changedSinceUnlock) == .other)
        #expect(FailureKind(of: VaultError.newerFormat(found: 3, supported: 2)) == .other)
    }
}
