import Domain
import Foundation

extension SyncRecord {
    /// A live record with every field stamped at `milliseconds` by `device`.
    public static func sample(
        _ id: UUID, secret: [UInt8] = [1, 2, 3, 4, 5], kind: KeyMaterial.Kind = .totp(period: 30), issuer: String = "Issuer",
        name: String = "me@example.com", note: String = "", groups: Set<String> = [], milliseconds: Int64 = 1_000,
        device: UUID = UUID(uuid: (0, 0, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0xDE, 1))
    ) -> SyncRecord {
        let at = HybridTimestamp(milliseconds: milliseconds, device: device)
        return SyncRecord(
            id: id,
            // Steam codes have 5 digits, as every account of that kind (AccountSpec).
            key: Stamped(
                KeyMaterial(secret: Secret(bytes: secret), kind: kind, algorithm: .sha1, digits: kind == .steam ? 5 : 6), changedAt: at),
            counter: 0, issuer: Stamped(issuer, changedAt: at), name: Stamped(name, changedAt: at), note: Stamped(note, changedAt: at),
            isFavorite: Stamped(false, changedAt: at), groups: Stamped(groups, changedAt: at),
            position: Stamped(FractionalPosition("U")!, changedAt: at), isDeleted: Stamped(false, changedAt: at))
    }

    /// The same record with `note` changed at `milliseconds`.
    public func noted(_ note: String, at milliseconds: Int64) -> SyncRecord {
        var copy = self
        copy.note = Stamped(note, changedAt: HybridTimestamp(milliseconds: milliseconds, device: self.note.changedAt.device))
        return copy
    }

    /// The same record deleted at `milliseconds`.
    public func deleted(at milliseconds: Int64) -> SyncRecord {
        var copy = self
        copy.isDeleted = Stamped(true, changedAt: HybridTimestamp(milliseconds: milliseconds, device: isDeleted.changedAt.device))
        return copy
    }
}
