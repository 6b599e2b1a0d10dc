import Domain
import Foundation

extension EntryPayloadDTO {
    /// The payload of a Domain account.
    init(_ account: Account) {
        let kind: KindDTO =
            switch account.kind {
            case .totp(let period): KindDTO(type: "totp", period: period)
            case .hotp(let counter): KindDTO(type: "hotp", counter: counter)
            case .steam: KindDTO(type: "steam")
            }
        self.init(
            issuer: account.issuer, account: account.name, secret: Data(account.secret.bytes).base64EncodedString(),
            kind: kind, algorithm: account.algorithm.rawValue, digits: account.digits, note: account.note,
            groups: account.groups, favorite: account.isFavorite)
    }

    /// The Domain account this payload describes; nil when a field is not one Domain knows.
    func toDomain(id: UUID, createdAt: Date, updatedAt: Date) -> Account? {
        guard let secretBytes = Data(base64Encoded: secret), let algorithm = OTPAlgorithm(rawValue: algorithm) else {
            return nil
        }
        let otpKind: OTPKind
        switch kind.type {
        case "totp":
            guard let period = kind.period else { return nil }
            otpKind = .totp(period: period)
        case "hotp":
            guard let counter = kind.counter else { return nil }
            otpKind = .hotp(counter: counter)
        case "steam":
            otpKind = .steam
        default:
            return nil
        }
        return Account(
            id: id, issuer: issuer, name: account, secret: Secret(bytes: Array(secretBytes)), kind: otpKind,
            algorithm: algorithm, digits: digits, note: note, isFavorite: favorite, groups: groups,
            createdAt: createdAt, updatedAt: updatedAt)
    }
}
