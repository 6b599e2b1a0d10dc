import Domain
import DomainTestSupport
import Foundation
import SyncRecordCoding
import Testing

@testable import SyncRemoteData

/// The JSON inside a sealed entry: written by hand as JSONEncoder's bytes with sorted keys, read
/// back directly; what older builds sealed (JSONEncoder's own key order) still reads the same.
@Suite("Sync entry cipher's JSON")
struct SyncEntryCipherJSONTests {
    static var records: [SyncRecord] {
        let stamp = HybridTimestamp(milliseconds: 1_700_000_600_000, device: UUID(uuidString: "00000000-0000-4000-8000-0000000000AA")!)
        let hostile = "\"quoted\" \\ back/slash \u{0}\u{1F}\u{7F} ünïcödé 🔑 \n\t"
        return [
            SyncEntryCipherTests.record(), SyncEntryCipherTests.record(note: hostile),
            SyncRecording.record(for: Account.fullyPopulated, at: FractionalPosition("U")!, stamp: stamp),
        ]
    }

    static func sortedJSON(_ dto: SyncRecordDTO) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return try encoder.encode(dto)
    }

    @Test("what is sealed is JSONEncoder's bytes with sorted keys, and is read directly")
    func sealedSorted() throws {
        for (index, record) in Self.records.enumerated() {
            let dto = SyncRecordDTO(record, version: UInt64(index + 1))
            let json = try #require(SyncEntryCipher.unpadded(SyncEntryCipher.paddedJSON(dto)))
            #expect(json == (try Self.sortedJSON(dto)))
            var reader = ExactJSONReader(Array(json))
            #expect(SyncRecordDTO(exactJSON: &reader) == dto && reader.atEnd)
            #expect(SyncEntryCipher.read(json) == dto)
        }
    }

    @Test("what older builds sealed (JSONEncoder's key order, slashes escaped) reads to the same record")
    func olderBuildsRead() throws {
        for record in Self.records {
            let dto = SyncRecordDTO(record, version: 2)
            let older = try JSONEncoder().encode(dto)
            var reader = ExactJSONReader(Array(older))
            #expect(SyncRecordDTO(exactJSON: &reader) == nil || !reader.atEnd)
            #expect(SyncEntryCipher.read(older) == dto)
            #expect(SyncEntryCipher.read(older)?.toDomain() == record)
        }
    }

    @Test("trailing bytes, a cut record or no JSON at all: nothing read")
    func damaged() throws {
        let json = try Self.sortedJSON(SyncRecordDTO(SyncEntryCipherTests.record(), version: 1))
        #expect(SyncEntryCipher.read(json + Data("x".utf8)) == nil)
        #expect(SyncEntryCipher.read(json.dropLast()) == nil)
        #expect(SyncEntryCipher.read(Data()) == nil)
    }
}
