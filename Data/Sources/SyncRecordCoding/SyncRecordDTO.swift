import Domain
import Foundation

/// What is encrypted in one sync entry (for the server, and in the vault's sync state): a
/// SyncRecord with every stamp, as JSON. Mapped to and from Domain's SyncRecord; anything out of
/// range reads as nil (a corrupt entry). Across versions (SyncRecordDTO+Coding): keys this
/// version does not know are kept (`extra`) and written back; a field an older version did not
/// write reads as its default at the oldest stamp.
package struct SyncRecordDTO: Codable, Equatable {
    package struct StampDTO: Codable, Equatable {
        package var ms: Int64
        package var c: UInt32
        package var d: String

        package init(ms: Int64, c: UInt32, d: String) {
            self.ms = ms
            self.c = c
            self.d = d
        }
    }

    package struct KeyDTO: Codable, Equatable {
        /// The secret's bytes, Base64.
        package var secret: String
        /// totp, hotp or steam.
        package var type: String
        package var period: Int?
        package var algorithm: String
        package var digits: Int
        package var at: StampDTO
        /// The stamps of the keys this one replaced (SyncRecord.keyHistory; absent when empty,
        /// and in records of older builds).
        package var replaced: [StampDTO]?
        /// The key's attributes this version does not know.
        package var extra: [String: JSONValue] = [:]
    }

    package struct FieldDTO<Value: Codable & Equatable>: Codable, Equatable {
        package var v: Value
        package var at: StampDTO
    }

    package var id: String
    /// The entry's version (RemoteEntry.version): sealed with the record, so the server cannot
    /// serve an older one as new.
    package var version: UInt64
    package var key: KeyDTO
    package var counter: UInt64
    package var issuer: FieldDTO<String>
    package var name: FieldDTO<String>
    package var note: FieldDTO<String>
    package var favorite: FieldDTO<Bool>
    package var groups: FieldDTO<[String]>
    package var position: FieldDTO<String>
    package var deleted: FieldDTO<Bool>
    /// The fields this version does not know.
    package var extra: [String: JSONValue] = [:]
}

extension SyncRecordDTO {
    package init(_ record: SyncRecord, version: UInt64) {
        func stamp(_ at: HybridTimestamp) -> StampDTO { StampDTO(ms: at.milliseconds, c: at.counter, d: at.device.text) }
        func field<Value>(_ stamped: Stamped<Value>) -> FieldDTO<Value> { FieldDTO(v: stamped.value, at: stamp(stamped.changedAt)) }
        let material = record.key.value
        let (type, period): (String, Int?) =
            switch material.kind {
            case .totp(let period): ("totp", period)
            case .hotp: ("hotp", nil)
            case .steam: ("steam", nil)
            }
        self.init(
            id: record.id.text, version: version,
            key: KeyDTO(
                secret: Data(material.secret.bytes).base64EncodedString(), type: type, period: period,
                algorithm: material.algorithm.rawValue, digits: material.digits, at: stamp(record.key.changedAt),
                replaced: record.keyHistory.isEmpty ? nil : record.keyHistory.map(stamp),
                extra: record.unknown.keyAttributes(of: record.key.changedAt).compactMapValues(JSONValue.init(text:))),
            counter: record.counter, issuer: field(record.issuer), name: field(record.name), note: field(record.note),
            favorite: field(record.isFavorite), groups: FieldDTO(v: record.groups.value.sorted(), at: stamp(record.groups.changedAt)),
            position: FieldDTO(v: record.position.value.digits, at: stamp(record.position.changedAt)), deleted: field(record.isDeleted),
            extra: record.unknown.fields.compactMapValues { JSONValue(text: $0.json) })
    }

    /// The record, or nil when a field is out of range.
    package func toDomain() -> SyncRecord? {
        func stamp(_ dto: StampDTO) -> HybridTimestamp? {
            UUID(text: dto.d).map { HybridTimestamp(milliseconds: dto.ms, counter: dto.c, device: $0) }
        }
        func field<Value>(_ dto: FieldDTO<Value>) -> Stamped<Value>? { stamp(dto.at).map { Stamped(dto.v, changedAt: $0) } }
        let kind: KeyMaterial.Kind? =
            switch (key.type, key.period) {
            case ("totp", let period?) where (1...86_400).contains(period): .totp(period: period)
            case ("hotp", nil): .hotp
            case ("steam", nil): .steam
            default: nil
            }
        guard let id = UUID(text: id), let kind, let bytes = Data(base64Encoded: key.secret), !bytes.isEmpty,
            let algorithm = OTPAlgorithm(rawValue: key.algorithm),
            kind == .steam ? key.digits == AccountSpec.steamDigits : AccountSpec.allowedDigits.contains(key.digits),
            let keyStamp = stamp(key.at), let issuer = field(issuer), let name = field(name), let note = field(note),
            let favorite = field(favorite), let groupsStamp = stamp(groups.at), let positionStamp = stamp(position.at),
            let place = FractionalPosition(position.v), let deleted = field(deleted)
        else { return nil }
        let history = (key.replaced ?? []).compactMap(stamp)
        guard history.count == key.replaced?.count ?? 0, history.count <= SyncRecord.keyHistoryLimit else { return nil }
        let material = KeyMaterial(secret: Secret(bytes: Array(bytes)), kind: kind, algorithm: algorithm, digits: key.digits)
        let unknown = SyncUnknownParts(
            fields: extra.mapValues { SyncUnknownParts.Field(json: $0.text, changedAt: Self.stamp(of: $0)) },
            keyAttributes: key.extra.mapValues(\.text), keyStamp: keyStamp)
        return SyncRecord(
            id: id, key: Stamped(material, changedAt: keyStamp), counter: counter, issuer: issuer, name: name, note: note,
            isFavorite: favorite, groups: Stamped(Set(groups.v), changedAt: groupsStamp),
            position: Stamped(place, changedAt: positionStamp), isDeleted: deleted, keyHistory: history, unknown: unknown)
    }
}
