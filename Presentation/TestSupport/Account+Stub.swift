import Domain
import DomainTestSupport
import Foundation

extension Account {
    /// A Presentation test account with defaults for every field but the issuer: Domain's one
    /// builder (`Account.stub`) with a numbered id and a one-byte secret.
    public static func row(
        _ number: Int, issuer: String, name: String = "user", kind: OTPKind = .totp(period: 30),
        digits: Int = 6, note: String = "", isFavorite: Bool = false
    ) -> Account {
        stub(
            id: UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", number))!, issuer: issuer,
            name: name, secret: Secret(bytes: [0x42]), kind: kind, digits: digits, note: note, isFavorite: isFavorite,
            createdAt: Date(timeIntervalSince1970: 0), updatedAt: Date(timeIntervalSince1970: 0))
    }
}
