import Domain
import Foundation

/// The DEV phase's demo accounts: fixed ids and public test secrets, so their codes are real,
/// reproducible and safe to show.
public enum DemoAccounts {
    /// When the demo accounts were "created".
    static let created = Date(timeIntervalSince1970: 1_700_000_000)

    public static let all: [Account] = [
        make(1, issuer: "Google", name: "demo@gmail.com", secret: "JBSWY3DPEHPK3PXP", isFavorite: true),
        make(2, issuer: "GitHub", name: "octocat", secret: "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ", groups: ["Work"]),
        make(
            3, issuer: "Amazon", name: "shopper@example.com", secret: "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZA",
            algorithm: .sha256, digits: 8, groups: ["Personal"]),
        make(
            4, issuer: "Example Bank", name: "hotp-demo", secret: "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ",
            kind: .hotp(counter: 0), note: "RFC 4226 test secret"),
        make(
            5, issuer: "Steam", name: "gaben", secret: "BASE32SECRET3232", kind: .steam, digits: 5,
            groups: ["Games"]),
    ]

    private static func make(
        _ number: Int, issuer: String, name: String, secret: String, kind: OTPKind = .totp(period: 30),
        algorithm: OTPAlgorithm = .sha1, digits: Int = 6, note: String = "", isFavorite: Bool = false,
        groups: [String] = []
    ) -> Account {
        Account(
            id: UUID(uuidString: "DE30000\(number)-0000-4000-8000-00000000000\(number)")!,
            issuer: issuer, name: name, secret: Secret(bytes: try! Base32.decode(secret)), kind: kind,
            algorithm: algorithm, digits: digits, note: note, isFavorite: isFavorite, groups: groups,
            createdAt: created, updatedAt: created)
    }
}
