import Domain
import Foundation

/// A record's JSON across versions of Tokens: the keys this version knows, read and written by
/// name; every other key kept in `extra` as it came and written back (a newer version's field or
/// key attribute survives an edit here); a field an older version did not write reads as its
/// default, stamped at the oldest stamp, so any machine's real change to it wins.
extension SyncRecordDTO {
    static let known: Set<String> = [
        "id", "version", "key", "counter", "issuer", "name", "note", "favorite", "groups", "position", "deleted",
    ]

    package init(from decoder: any Decoder) throws {
        let json = try decoder.container(keyedBy: AnyCodingKey.self)
        func field<Value: Codable>(_ name: String, default value: Value) throws -> FieldDTO<Value> {
            try json.decodeIfPresent(FieldDTO<Value>.self, forKey: AnyCodingKey(name)) ?? FieldDTO(v: value, at: .oldest)
        }
        self.init(
            id: try json.decode(String.self, forKey: AnyCodingKey("id")),
            version: try json.decode(UInt64.self, forKey: AnyCodingKey("version")),
            key: try json.decode(KeyDTO.self, forKey: AnyCodingKey("key")),
            counter: try json.decodeIfPresent(UInt64.self, forKey: AnyCodingKey("counter")) ?? 0,
            issuer: try field("issuer", default: ""), name: try field("name", default: ""), note: try field("note", default: ""),
            favorite: try field("favorite", default: false), groups: try field("groups", default: []),
            position: try field("position", default: FractionalPosition.between(nil, nil).digits),
            deleted: try field("deleted", default: false),
            extra: try Self.extra(json, known: Self.known))
    }

    package func encode(to encoder: any Encoder) throws {
        var json = encoder.container(keyedBy: AnyCodingKey.self)
        for (name, value) in extra where !Self.known.contains(name) { try json.encode(value, forKey: AnyCodingKey(name)) }
        try json.encode(id, forKey: AnyCodingKey("id"))
        try json.encode(version, forKey: AnyCodingKey("version"))
        try json.encode(key, forKey: AnyCodingKey("key"))
        try json.encode(counter, forKey: AnyCodingKey("counter"))
        try json.encode(issuer, forKey: AnyCodingKey("issuer"))
        try json.encode(name, forKey: AnyCodingKey("name"))
        try json.encode(note, forKey: AnyCodingKey("note"))
        try json.encode(favorite, forKey: AnyCodingKey("favorite"))
        try json.encode(groups, forKey: AnyCodingKey("groups"))
        try json.encode(position, forKey: AnyCodingKey("position"))
        try json.encode(deleted, forKey: AnyCodingKey("deleted"))
    }

    /// The keys of `json` not in `known`, as they came.
    static func extra(_ json: KeyedDecodingContainer<AnyCodingKey>, known: Set<String>) throws -> [String: JSONValue] {
        var extra: [String: JSONValue] = [:]
        for key in json.allKeys where !known.contains(key.stringValue) {
            extra[key.stringValue] = try json.decode(JSONValue.self, forKey: key)
        }
        return extra
    }

    /// The stamp of an unknown field shaped as every field is (`{"v": …, "at": stamp}`).
    static func stamp(of value: JSONValue) -> HybridTimestamp? {
        guard case .object(let field) = value, case .object(let at)? = field["at"], case .integer(let ms)? = at["ms"],
            case .integer(let c)? = at["c"], let counter = UInt32(exactly: c), case .string(let d)? = at["d"],
            let device = UUID(uuidString: d)
        else { return nil }
        return HybridTimestamp(milliseconds: ms, counter: counter, device: device)
    }
}

extension SyncRecordDTO.KeyDTO {
    static let known: Set<String> = ["secret", "type", "period", "algorithm", "digits", "at", "replaced"]

    package init(from decoder: any Decoder) throws {
        let json = try decoder.container(keyedBy: AnyCodingKey.self)
        self.init(
            secret: try json.decode(String.self, forKey: AnyCodingKey("secret")),
            type: try json.decode(String.self, forKey: AnyCodingKey("type")),
            period: try json.decodeIfPresent(Int.self, forKey: AnyCodingKey("period")),
            algorithm: try json.decode(String.self, forKey: AnyCodingKey("algorithm")),
            digits: try json.decode(Int.self, forKey: AnyCodingKey("digits")),
            at: try json.decode(SyncRecordDTO.StampDTO.self, forKey: AnyCodingKey("at")),
            replaced: try json.decodeIfPresent([SyncRecordDTO.StampDTO].self, forKey: AnyCodingKey("replaced")),
            extra: try SyncRecordDTO.extra(json, known: Self.known))
    }

    package func encode(to encoder: any Encoder) throws {
        var json = encoder.container(keyedBy: AnyCodingKey.self)
        for (name, value) in extra where !Self.known.contains(name) { try json.encode(value, forKey: AnyCodingKey(name)) }
        try json.encode(secret, forKey: AnyCodingKey("secret"))
        try json.encode(type, forKey: AnyCodingKey("type"))
        try json.encodeIfPresent(period, forKey: AnyCodingKey("period"))
        try json.encode(algorithm, forKey: AnyCodingKey("algorithm"))
        try json.encode(digits, forKey: AnyCodingKey("digits"))
        try json.encode(at, forKey: AnyCodingKey("at"))
        try json.encodeIfPresent(replaced, forKey: AnyCodingKey("replaced"))
    }
}

extension SyncRecordDTO.StampDTO {
    /// Before every real stamp: the stamp of a field a record's writer did not know.
    package static let oldest = Self(ms: 0, c: 0, d: "00000000-0000-0000-0000-000000000000")
}
