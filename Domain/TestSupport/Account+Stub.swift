import Domain
import Foundation

extension Account {
    /// An account with a default for every field, for tests to override what they care about.
    public static func stub(
        id: UUID = UUID(uuidString: "00000000-0000-4000-8000-000000000001")!,
        issuer: String = "Example",
        name: String = "alice@example.com",
        secret: Secret = RFC4226HMAC.secret,
        kind: OTPKind = .totp(period: 30),
        algorithm: OTPAlgorithm = .sha1,
        digits: Int = 6,
        note: String = "",
        isFavorite: Bool = false,
        groups: [String] = [],
        createdAt: Date = Date(timeIntervalSince1970: 1_600_000_000),
        updatedAt: Date = Date(timeIntervalSince1970: 1_600_000_000)
    ) -> Account {
        Account(
            id: id, issuer: issuer, name: name, secret: secret, kind: kind, algorithm: algorithm,
            digits: digits, note: note, isFavorite: isFavorite, groups: groups, createdAt: createdAt,
            updatedAt: updatedAt)
    }

    /// A stub whose id is derived from a small number, for lists of distinct accounts.
    public static func stub(number: Int, issuer: String, name: String = "", note: String = "", isFavorite: Bool = false) -> Account {
        stub(
            id: UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", number))!,
            issuer: issuer, name: name, note: note, isFavorite: isFavorite)
    }
}
