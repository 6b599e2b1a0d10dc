import Domain
import DomainTestSupport
import Foundation
import SyncRecordCoding
import SyncRemoteData
import Testing

/// Sync records as other versions of Tokens wrote them (Fixtures/SyncRecords): a newer one's
/// fields and key attributes survive an edit here and go back to the server as they came; an
/// older one, without a field this version has, is read with that field's default.
@Suite("Sync records from other versions of Tokens")
struct SyncRecordVersionsTests {
    static func fixture(_ name: String) throws -> Data {
        let url = try #require(Bundle.module.url(forResource: "Fixtures/SyncRecords/\(name)", withExtension: "json"))
        return try Data(contentsOf: url)
    }

    static func object(_ json: Data) throws -> [String: JSONValue] {
        guard case .object(let object) = try JSONDecoder().decode(JSONValue.self, from: json) else { throw FixtureError() }
        return object
    }

    struct FixtureError: Error {}

    @Test("a newer record edited here: its unknown field, its key's unknown attribute and a plain extra value go back unchanged")
    func newerRecordKeptWhole() throws {
        let json = try Self.fixture("newer-with-archived")
        let record = try #require(try JSONDecoder().decode(SyncRecordDTO.self, from: json).toDomain())
        #expect(record.unknown.fields.keys.sorted() == ["archived", "colour"])
        #expect(
            record.unknown.fields["archived"]?.changedAt
                == HybridTimestamp(
                    milliseconds: 1_800_000_005_000, counter: 2, device: UUID(uuidString: "00000000-0000-4000-8000-0000000000BB")!))
        #expect(record.isFavorite.value)

        var account = try #require(SyncRecording.account(from: record, previous: nil))
        account.note = "edited on an older machine"
        let edited = SyncRecording.updating(record, to: account, stamp: HybridTimestamp(milliseconds: 1_800_000_009_000, device: UUID()))
        let written = try Self.object(JSONEncoder().encode(SyncRecordDTO(edited, version: 4)))
        let original = try Self.object(json)
        #expect(written["archived"] == original["archived"])
        #expect(written["colour"] == original["colour"])
        guard case .object(let key)? = written["key"], case .object(let originalKey)? = original["key"] else { throw FixtureError() }
        #expect(key["icon"] == originalKey["icon"])
        guard case .object(let note)? = written["note"] else { throw FixtureError() }
        #expect(note["v"] == .string("edited on an older machine"))
    }

    @Test("the same through sealing for the server and opening again")
    func newerRecordThroughTheCipher() throws {
        let record = try #require(try JSONDecoder().decode(SyncRecordDTO.self, from: Self.fixture("newer-with-archived")).toDomain())
        let keys = SyncEntryCipherTests.keys
        let sealed = try SyncEntryCipher.seal(record, version: 3, keys: keys)
        let opened = try SyncEntryCipher.open(
            entry: record.id, keyVersion: keys.version, nonce: sealed.nonce, ciphertext: sealed.ciphertext, keys: keys)
        #expect(opened.record == record)
    }

    @Test("a record from before the favourite field is read, not set aside: not a favourite, at the oldest stamp, so any real change wins")
    func olderRecordRead() throws {
        let record = try #require(try JSONDecoder().decode(SyncRecordDTO.self, from: Self.fixture("before-favorite")).toDomain())
        #expect(!record.isFavorite.value)
        #expect(record.isFavorite.changedAt < record.key.changedAt)
        #expect(record.note.value == "from an older build" && record.counter == 4 && record.unknown == .none)
        var favourite = record
        favourite.isFavorite = Stamped(true, changedAt: HybridTimestamp(milliseconds: 1, device: UUID()))
        #expect(SyncMerge.merge(base: nil, local: record, remote: favourite).merged.isFavorite.value)
    }

    @Test("the fully populated account as a sync record, through the JSON and the cipher, and back: every field")
    func everyField() throws {
        let stamp = HybridTimestamp(milliseconds: 1_700_000_600_000, device: UUID(uuidString: "00000000-0000-4000-8000-0000000000AA")!)
        let record = SyncRecording.record(for: Account.fullyPopulated, at: FractionalPosition("U")!, stamp: stamp)
        let json = try JSONEncoder().encode(SyncRecordDTO(record, version: 1))
        #expect(try JSONDecoder().decode(SyncRecordDTO.self, from: json).toDomain() == record)
        let keys = SyncEntryCipherTests.keys
        let sealed = try SyncEntryCipher.seal(record, version: 1, keys: keys)
        let opened = try SyncEntryCipher.open(
            entry: record.id, keyVersion: keys.version, nonce: sealed.nonce, ciphertext: sealed.ciphertext, keys: keys)
        #expect(SyncRecording.account(from: opened.record, previous: Account.fullyPopulated) == Account.fullyPopulated)
    }
}
