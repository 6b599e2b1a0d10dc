import DataLayer
import Domain
import Foundation

/// A temporary folder holding a vault, removed at the end of the test.
final class VaultFolder {
    static let fastKDF = ScryptParameters(n: 1 << 10, r: 8, p: 1)

    let directory: URL
    var path: String { directory.appendingPathComponent("vault.sqlite").path }

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("tokens-vault-\(UUID())/vault")
    }

    deinit { try? FileManager.default.removeItem(at: directory.deletingLastPathComponent()) }

    /// Creates the vault with `passphrase` and returns it unlocked.
    func create(_ passphrase: String = "correct horse") throws -> UnlockedVault {
        try Vault.create(at: path, passphrase: Passphrase(passphrase), kdf: Self.fastKDF)
        return try Vault.open(at: path, passphrase: Passphrase(passphrase))
    }

    /// Every file in the vault folder and its bytes.
    func snapshot() throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
            files[name] = try Data(contentsOf: directory.appendingPathComponent(name))
        }
        return files
    }

    static func account(_ number: Int, issuer: String = "Issuer", note: String = "", kind: OTPKind = .totp(period: 30)) -> Account {
        Account(
            id: UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", number))!, issuer: "\(issuer) \(number)",
            name: "user\(number)@example.com", secret: Secret(bytes: Array("secret-\(number)-xyzzy-plugh".utf8)), kind: kind,
            note: note, groups: ["Group\(number)"], createdAt: Date(timeIntervalSince1970: 1_700_000_000),
            updatedAt: Date(timeIntervalSince1970: 1_700_000_000))
    }
}
