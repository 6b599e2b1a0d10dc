import Domain

/// A record read straight from the JSON JSONEncoder writes for it with sorted keys (the vault's
/// sync rows), at a fraction of JSONDecoder's cost: an idle sync reads every row. Only that exact
/// shape, with every field this version knows and none it does not: anything else (a newer
/// version's field, a field an older one left out, other spacing) is nil, and the caller decodes
/// with JSONDecoder, which reads them all. Tests hold both readers to the same result.
extension SyncRecordDTO {
    package init?(exactJSON reader: inout ExactJSONReader) {
        guard reader.literal(#"{"counter":"#), let counter = reader.number(),
            reader.literal(#","deleted":"#), let deleted = Self.field(&reader, { $0.bool() }),
            reader.literal(#","favorite":"#), let favorite = Self.field(&reader, { $0.bool() }),
            reader.literal(#","groups":"#), let groups = Self.field(&reader, { Self.strings(&$0) }),
            reader.literal(#","id":"#), let id = reader.string(),
            reader.literal(#","issuer":"#), let issuer = Self.field(&reader, { $0.string() }),
            reader.literal(#","key":"#), let key = KeyDTO(exactJSON: &reader),
            reader.literal(#","name":"#), let name = Self.field(&reader, { $0.string() }),
            reader.literal(#","note":"#), let note = Self.field(&reader, { $0.string() }),
            reader.literal(#","position":"#), let position = Self.field(&reader, { $0.string() }),
            reader.literal(#","version":"#), let version = reader.number(), reader.literal("}")
        else { return nil }
        self.init(
            id: id, version: version, key: key, counter: counter, issuer: issuer, name: name, note: note, favorite: favorite,
            groups: groups, position: position, deleted: deleted)
    }

    /// `{"at":STAMP,"v":VALUE}`.
    static func field<Value>(_ reader: inout ExactJSONReader, _ value: (inout ExactJSONReader) -> Value?) -> FieldDTO<Value>? {
        guard reader.literal(#"{"at":"#), let at = StampDTO(exactJSON: &reader), reader.literal(#","v":"#), let read = value(&reader),
            reader.literal("}")
        else { return nil }
        return FieldDTO(v: read, at: at)
    }

    /// `[STRING,…]`.
    static func strings(_ reader: inout ExactJSONReader) -> [String]? {
        guard reader.literal("[") else { return nil }
        var strings: [String] = []
        if reader.literal("]") { return strings }
        repeat {
            guard let string = reader.string() else { return nil }
            strings.append(string)
        } while reader.literal(",")
        return reader.literal("]") ? strings : nil
    }
}

extension SyncRecordDTO.StampDTO {
    /// `{"c":COUNTER,"d":DEVICE,"ms":MILLISECONDS}`.
    package init?(exactJSON reader: inout ExactJSONReader) {
        guard reader.literal(#"{"c":"#), let c = reader.number().flatMap(UInt32.init(exactly:)),
            reader.literal(#","d":"#), let d = reader.string(),
            reader.literal(#","ms":"#), let ms = reader.integer(), reader.literal("}")
        else { return nil }
        self.init(ms: ms, c: c, d: d)
    }
}

extension SyncRecordDTO.KeyDTO {
    /// `{"algorithm":…,"at":…,"digits":…[,"period":…][,"replaced":[…]],"secret":…,"type":…}`.
    init?(exactJSON reader: inout ExactJSONReader) {
        guard reader.literal(#"{"algorithm":"#), let algorithm = reader.string(),
            reader.literal(#","at":"#), let at = SyncRecordDTO.StampDTO(exactJSON: &reader),
            reader.literal(#","digits":"#), let digits = reader.integer().flatMap(Int.init(exactly:))
        else { return nil }
        var period: Int?
        if reader.literal(#","period":"#) {
            guard let value = reader.integer().flatMap(Int.init(exactly:)) else { return nil }
            period = value
        }
        var replaced: [SyncRecordDTO.StampDTO]?
        if reader.literal(#","replaced":["#) {
            var stamps: [SyncRecordDTO.StampDTO] = []
            if !reader.literal("]") {
                repeat {
                    guard let stamp = SyncRecordDTO.StampDTO(exactJSON: &reader) else { return nil }
                    stamps.append(stamp)
                } while reader.literal(",")
                guard reader.literal("]") else { return nil }
            }
            replaced = stamps
        }
        guard reader.literal(#","secret":"#), let secret = reader.string(),
            reader.literal(#","type":"#), let type = reader.string(), reader.literal("}")
        else { return nil }
        self.init(secret: secret, type: type, period: period, algorithm: algorithm, digits: digits, at: at, replaced: replaced)
    }
}
