import SyncRecordCoding

extension SyncEntryStateDTO {
    /// A `sync_entry` row's state read straight from the JSON `VaultSyncTables` writes
    /// (JSONEncoder, sorted keys), as `SyncRecordDTO(exactJSON:)` reads its records; nil for any
    /// other shape, which JSONDecoder then reads. Opening every row at each sync spent most of
    /// an idle sync in JSONDecoder.
    init?(exactJSON bytes: some Collection<UInt8>) {
        var reader = ExactJSONReader(Array(bytes))
        defer { reader.wipe() }
        guard reader.literal("{") else { return nil }
        var base: BaseDTO?
        if reader.literal(#""base":"#) {
            guard let read = BaseDTO(exactJSON: &reader), reader.literal(",") else { return nil }
            base = read
        }
        guard reader.literal(#""pending":"#), let pending = reader.bool() else { return nil }
        var pushedOver: BaseDTO?
        if reader.literal(#","pushedOver":"#) {
            guard let read = BaseDTO(exactJSON: &reader) else { return nil }
            pushedOver = read
        }
        guard reader.literal(#","record":"#), let record = SyncRecordDTO(exactJSON: &reader), reader.literal("}"), reader.atEnd
        else { return nil }
        self.init(record: record, base: base, pending: pending, pushedOver: pushedOver)
    }
}

extension SyncEntryStateDTO.BaseDTO {
    /// `{"record":…,"sequence":…,"version":…}`.
    init?(exactJSON reader: inout ExactJSONReader) {
        guard reader.literal(#"{"record":"#), let record = SyncRecordDTO(exactJSON: &reader),
            reader.literal(#","sequence":"#), let sequence = reader.integer(),
            reader.literal(#","version":"#), let version = reader.number(), reader.literal("}")
        else { return nil }
        self.init(sequence: sequence, version: version, record: record)
    }
}
