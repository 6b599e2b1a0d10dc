import AppComposition
import DataLayer
import Domain
import Testing

/// The exit status a script sees for each vault failure: 4 for a wrong passphrase, 5 for a vault
/// that is damaged or was modified outside Tokens.
@Suite("Failure kinds")
struct FailureKindTests {
    @Test(
        "modified, tampered, damaged and foreign vaults are 'damaged vault' (status 5)",
        arguments: [
            VaultError.modified(.entries), .modified(.foreignSchema(kind: "trigger", name: "t")), .modified(.schemaChanged),
            .modified(.writeIgnored), .headerTampered, .entryDamaged(id: "x"), .notAVault(path: "p"), .foreignDatabase(path: "p"),
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

/// Inner layers say what went wrong; the command line's words (a command to run, a flag, a
/// variable) are added by App.
@Suite("Failure texts")
struct FailureTextTests {
    static let innerErrors: [any Error] = [
        VaultError.notInitialized(path: "/v"), VaultError.alreadyExists(path: "/v"), VaultError.wrongPassphrase,
        VaultError.emptyPassphrase, VaultError.notAVault(path: "/v"), VaultError.foreignDatabase(path: "/v"),
        VaultError.occupied(path: "/v"), VaultError.damaged(path: "/v", reason: "r"),
        VaultError.headerTampered, VaultError.modified(.entries), VaultError.changedSinceUnlock, VaultError.entryDamaged(id: "x"),
        VaultError.newerFormat(found: 3, supported: 2), VaultError.unsupportedKDF("k"), VaultError.busy, VaultError.locked,
        ImportError.unknownFormat, ImportError.image(kind: "GIF"), ImportError.picture(reason: "r"), ImportError.noCodeInPicture,
        ImportError.notAnExport(kind: "a KeePass database"),
        ImportError.passwordRequired(.aegis), ImportError.wrongPassword(.aegis),
        ImportError.malformed(.aegis, "d"), ImportError.unsupported(.aegis, "d"), ImportError.tooManyEntries(2, limit: 1),
    ]

    @Test("no inner error's own text names a command, a flag or a variable")
    func innerTextsAreFreeOfCommandLineWords() {
        for error in Self.innerErrors {
            let text = String(describing: error)
            #expect(!text.contains("`tokens ") && !text.contains("--") && !text.contains("TOKENS_"), "\(text)")
        }
    }

    @Test(
        "the command line adds what to type",
        arguments: [
            (VaultError.notInitialized(path: "/v") as any Error, "create one with `tokens init`"),
            (ImportError.unknownFormat, "name it with --format"),
            (ImportError.image(kind: "GIF"), "`convert FILE code.png`"),
            (ImportError.passwordRequired(.aegis), "--password-file or TOKENS_IMPORT_PASSWORD"),
        ] as [(any Error, String)])
    func commandLineWords(error: any Error, words: String) {
        let sentence = FailureText.sentence(for: error)
        #expect(sentence.hasPrefix(String(describing: error)))
        #expect(sentence.contains(words), "\(sentence)")
    }
}
