/// A record written straight as the JSON JSONEncoder writes for it with sorted keys (the vault's
/// sync rows), the mirror of `SyncRecordDTO(exactJSON:)`: a first push or a join writes every row.
/// A record with keys this version does not know is left to JSONEncoder (false, nothing written).
extension SyncRecordDTO {
    package func writeExactJSON(into writer: inout ExactJSONWriter) -> Bool {
        guard extra.isEmpty, key.extra.isEmpty else { return false }
        writer.literal(#"{"counter":"#)
        writer.integer(counter)
        writer.literal(#","deleted":"#)
        Self.write(deleted, into: &writer) { $0.bool($1) }
        writer.literal(#","favorite":"#)
        Self.write(favorite, into: &writer) { $0.bool($1) }
        writer.literal(#","groups":"#)
        Self.write(groups, into: &writer) { writer, groups in
            writer.literal("[")
            for (index, group) in groups.enumerated() {
                if index > 0 { writer.literal(",") }
                writer.string(group)
            }
            writer.literal("]")
        }
        writer.literal(#","id":"#)
        writer.string(id)
        writer.literal(#","issuer":"#)
        Self.write(issuer, into: &writer) { $0.string($1) }
        writer.literal(#","key":"#)
        key.writeExactJSON(into: &writer)
        writer.literal(#","name":"#)
        Self.write(name, into: &writer) { $0.string($1) }
        writer.literal(#","note":"#)
        Self.write(note, into: &writer) { $0.string($1) }
        writer.literal(#","position":"#)
        Self.write(position, into: &writer) { $0.string($1) }
        writer.literal(#","version":"#)
        writer.integer(version)
        writer.literal("}")
        return true
    }

    /// The most bytes `writeExactJSON` writes: its texts each escaped in full, and room to spare
    /// for its keys, numbers and stamps.
    package var exactJSONRoom: Int {
        let texts = [id, key.secret, key.type, key.algorithm, issuer.v, name.v, note.v, position.v] + groups.v
        return texts.reduce(2048 + 100 * (key.replaced?.count ?? 0)) { $0 + ExactJSONWriter.room(for: $1) + 1 }
    }

    /// `{"at":STAMP,"v":VALUE}`.
    static func write<Value>(_ field: FieldDTO<Value>, into writer: inout ExactJSONWriter, _ value: (inout ExactJSONWriter, Value) -> Void)
    {
        writer.literal(#"{"at":"#)
        field.at.writeExactJSON(into: &writer)
        writer.literal(#","v":"#)
        value(&writer, field.v)
        writer.literal("}")
    }
}

extension SyncRecordDTO.StampDTO {
    /// `{"c":COUNTER,"d":DEVICE,"ms":MILLISECONDS}`.
    package func writeExactJSON(into writer: inout ExactJSONWriter) {
        writer.literal(#"{"c":"#)
        writer.integer(c)
        writer.literal(#","d":"#)
        writer.string(d)
        writer.literal(#","ms":"#)
        writer.integer(ms)
        writer.literal("}")
    }
}

extension SyncRecordDTO.KeyDTO {
    /// `{"algorithm":…,"at":…,"digits":…[,"period":…][,"replaced":[…]],"secret":…,"type":…}`.
    func writeExactJSON(into writer: inout ExactJSONWriter) {
        writer.literal(#"{"algorithm":"#)
        writer.string(algorithm)
        writer.literal(#","at":"#)
        at.writeExactJSON(into: &writer)
        writer.literal(#","digits":"#)
        writer.integer(digits)
        if let period {
            writer.literal(#","period":"#)
            writer.integer(period)
        }
        if let replaced {
            writer.literal(#","replaced":["#)
            for (index, stamp) in replaced.enumerated() {
                if index > 0 { writer.literal(",") }
                stamp.writeExactJSON(into: &writer)
            }
            writer.literal("]")
        }
        writer.literal(#","secret":"#)
        writer.string(secret)
        writer.literal(#","type":"#)
        writer.string(type)
        writer.literal("}")
    }
}
