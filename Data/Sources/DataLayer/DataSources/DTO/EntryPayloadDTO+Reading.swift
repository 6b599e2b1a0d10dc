import Domain
import Foundation
import SyncRecordCoding

extension EntryPayloadDTO {
    /// The payload from the exact JSON `jsonBytes()` writes, read directly: a tenth of
    /// JSONDecoder's cost, which was most of opening a vault of 30 accounts. Nil for any other
    /// shape (key order, escapes, spacing): the caller then decodes with JSONDecoder, which reads
    /// every payload older builds wrote.
    init?(jsonBytes bytes: some Collection<UInt8>) {
        var reader = ExactJSONReader(Array(bytes))
        defer { reader.wipe() }
        guard reader.literal(#"{"issuer":"#), let issuer = reader.string(),
            reader.literal(#","account":"#), let account = reader.string(),
            reader.literal(#","secret":"#), let secret = reader.string(),
            reader.literal(#","kind":{"type":"#), let type = reader.string()
        else { return nil }
        var period: Int?
        var counter: UInt64?
        if reader.literal(#","period":"#) {
            guard let value = reader.number().flatMap({ Int(exactly: $0) }) else { return nil }
            period = value
        }
        if reader.literal(#","counter":"#) {
            guard let value = reader.number() else { return nil }
            counter = value
        }
        guard reader.literal(#"},"algorithm":"#), let algorithm = reader.string(),
            reader.literal(#","digits":"#), let digits = reader.number().flatMap({ Int(exactly: $0) }),
            reader.literal(#","note":"#), let note = reader.string(),
            reader.literal(#","groups":["#)
        else { return nil }
        var groups: [String] = []
        if !reader.literal("]") {
            repeat {
                guard let group = reader.string() else { return nil }
                groups.append(group)
            } while reader.literal(",")
            guard reader.literal("]") else { return nil }
        }
        guard reader.literal(#","favorite":"#) else { return nil }
        guard let favorite = reader.bool(), reader.literal("}"), reader.atEnd else { return nil }
        self.init(
            issuer: issuer, account: account, secret: secret, kind: KindDTO(type: type, period: period, counter: counter),
            algorithm: algorithm, digits: digits, note: note, groups: groups, favorite: favorite)
    }
}
