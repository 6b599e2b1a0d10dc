import Domain
import DomainTestSupport
import Foundation
import SyncRecordCoding
import Testing

@testable import DataLayer

/// The sync rows' direct writer (`SyncEntryStateDTO.exactJSON()`) against JSONEncoder with sorted
/// keys: the same bytes for every state, hostile text and every control character included; nil
/// (JSONEncoder's to write) for a record with keys only a newer version knows.
@Suite("Sync rows written without JSONEncoder")
struct SyncRowWritingTests {
    @Test("every state's hand-written JSON is JSONEncoder's, byte for byte", arguments: 0..<4)
    func sameAsJSONEncoder(batch: Int) throws {
        var random = SplitMix(seed: SyncRowReadingTests.seed &+ 1000 &+ UInt64(batch))
        for _ in 0..<150 {
            let dto = SyncEntryStateDTO(RandomSyncState.make(using: &random))
            let written = try #require(dto.exactJSON())
            #expect(written == (try VaultSyncTables.json(dto)), "\(String(decoding: written, as: UTF8.self))")
        }
    }

    @Test("every byte below 0x20, the characters JSON escapes, DEL and non-ASCII text: JSONEncoder's escapes")
    func escapes() throws {
        var random = SplitMix(seed: SyncRowReadingTests.seed)
        var state = RandomSyncState.make(using: &random)
        let awkward = (0..<0x20).map { String(UnicodeScalar(UInt8($0))) }.joined() + "\"\\/\u{7F}\u{85}é日🔑\u{202E}\u{2028}\u{2029}"
        state.record.note = Stamped(awkward, changedAt: state.record.note.changedAt)
        state.record.groups = Stamped([awkward, "", "/"], changedAt: state.record.groups.changedAt)
        let dto = SyncEntryStateDTO(state)
        #expect(dto.exactJSON() == (try VaultSyncTables.json(dto)))
        #expect(SyncEntryStateDTO(exactJSON: try #require(dto.exactJSON())) != nil)
    }

    @Test("a record with a field or key attribute only a newer version knows is left to JSONEncoder")
    func newerFieldsDeclined() throws {
        var random = SplitMix(seed: SyncRowReadingTests.seed &+ 7)
        var state = RandomSyncState.make(using: &random)
        let at = #"{"c":0,"d":"00000000-0000-4000-8000-000000000001","ms":5}"#
        state.record.unknown.fields["colour"] = SyncUnknownParts.Field(json: #"{"at":\#(at),"v":"red"}"#, changedAt: nil)
        #expect(SyncEntryStateDTO(state).exactJSON() == nil)
        state.record.unknown = SyncUnknownParts(keyAttributes: ["icon": #""key""#], keyStamp: state.record.key.changedAt)
        #expect(SyncEntryStateDTO(state).exactJSON() == nil)
    }
}
