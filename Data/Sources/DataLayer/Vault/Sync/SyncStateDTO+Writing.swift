import SyncRecordCoding

extension SyncEntryStateDTO {
    /// The JSON `VaultSyncTables` writes for this state (JSONEncoder's bytes with sorted keys,
    /// which `SyncEntryStateDTO(exactJSON:)` reads), written by hand; nil when a record holds keys
    /// this version does not know, which JSONEncoder then writes. A first push or a join of
    /// 10 000 accounts spent a third of its time in JSONEncoder writing rows.
    func exactJSON() -> [UInt8]? {
        let records = [record, base?.record, pushedOver?.record].compactMap { $0 }
        var writer = ExactJSONWriter(capacity: records.reduce(256) { $0 + $1.exactJSONRoom })
        writer.literal("{")
        if let base {
            writer.literal(#""base":"#)
            guard base.writeExactJSON(into: &writer) else { return wiped(&writer) }
            writer.literal(",")
        }
        writer.literal(#""pending":"#)
        writer.bool(pending)
        if let pushedOver {
            writer.literal(#","pushedOver":"#)
            guard pushedOver.writeExactJSON(into: &writer) else { return wiped(&writer) }
        }
        writer.literal(#","record":"#)
        guard record.writeExactJSON(into: &writer) else { return wiped(&writer) }
        writer.literal("}")
        return writer.bytes
    }

    private func wiped(_ writer: inout ExactJSONWriter) -> [UInt8]? {
        writer.wipe()
        return nil
    }
}

extension SyncEntryStateDTO.BaseDTO {
    /// `{"record":…,"sequence":…,"version":…}`.
    func writeExactJSON(into writer: inout ExactJSONWriter) -> Bool {
        writer.literal(#"{"record":"#)
        guard record.writeExactJSON(into: &writer) else { return false }
        writer.literal(#","sequence":"#)
        writer.integer(sequence)
        writer.literal(#","version":"#)
        writer.integer(version)
        writer.literal("}")
        return true
    }
}
