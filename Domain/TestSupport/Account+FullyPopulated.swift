import Domain
import Foundation

extension Account {
    /// Every field set away from its default (and from `Account.plain`'s): round-tripped through
    /// every path a field must take (the repository and each store, the vault payload, the sync
    /// record, an export that carries it), so a field added without its mapping fails a test in
    /// the package that forgot it. `AccountFixtureTests` fails when `Account` gains a stored
    /// property this fixture leaves at its default: set it here too.
    public static let fullyPopulated = Account(
        id: UUID(uuidString: "F0000000-0000-4000-8000-00000000F011")!,
        issuer: "Fully Populated Ltd", name: "every.field@example.com",
        secret: Secret(bytes: Array("a secret of twenty bytes+".utf8)), kind: .hotp(counter: 42), algorithm: .sha512, digits: 8,
        note: "a note on every field", isFavorite: true, groups: ["bank", "work"],
        createdAt: Date(timeIntervalSince1970: 1_700_000_000), updatedAt: Date(timeIntervalSince1970: 1_700_000_600))

    /// An account with every parameter that has a default left at it, and the others at their
    /// simplest: what `fullyPopulated` must differ from in every stored property.
    public static let plain = Account(
        id: UUID(uuidString: "00000000-0000-4000-8000-000000000000")!, issuer: "", name: "", secret: Secret(bytes: [0]),
        kind: .totp(period: 30), createdAt: Date(timeIntervalSince1970: 0), updatedAt: Date(timeIntervalSince1970: 0))
}
