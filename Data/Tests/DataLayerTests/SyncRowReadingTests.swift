import Domain
import DomainTestSupport
import Foundation
import SyncRecordCoding
import Testing

@testable import DataLayer

/// The sync rows' direct reader (`SyncEntryStateDTO(exactJSON:)`) against JSONDecoder: the same
/// state from every row the vault writes, hostile text included; nil (JSONDecoder's to read)
/// for any other shape; and never a different answer or a trap on damaged bytes.
@Suite("Sync rows read without JSONDecoder")
struct SyncRowReadingTests {
    static let seed: UInt64 = 0x5EED_0F_5_1C

    /// Both readers' states from `bytes`: the direct one (nil when it declines) and JSONDecoder's.
    static func read(_ bytes: [UInt8]) -> (exact: SyncEntryStateDTO?, decoded: SyncEntryStateDTO?) {
        (SyncEntryStateDTO(exactJSON: bytes), try? JSONDecoder().decode(SyncEntryStateDTO.self, from: Data(bytes)))
    }

    @Test("every state the vault writes reads the same through both readers, and as it was written", arguments: 0..<4)
    func sameAsJSONDecoder(batch: Int) throws {
        var random = SplitMix(seed: Self.seed &+ UInt64(batch))
        for _ in 0..<150 {
            let state = RandomSyncState.make(using: &random)
            let bytes = try VaultSyncTables.json(SyncEntryStateDTO(state))
            let (exact, decoded) = Self.read(bytes)
            let direct = try #require(exact, "declined: \(String(decoding: bytes, as: UTF8.self))")
            #expect(direct.toDomain() != nil)
            #expect(direct.toDomain() == decoded?.toDomain())
            #expect(try VaultSyncTables.json(direct) == bytes)
        }
    }

    @Test("a row with a field or key attribute only a newer version knows is left to JSONDecoder, which keeps it")
    func newerFieldsDeclined() throws {
        var random = SplitMix(seed: Self.seed)
        var state = RandomSyncState.make(using: &random)
        let at = #"{"c":0,"d":"00000000-0000-4000-8000-000000000001","ms":5}"#
        state.record.unknown.fields["colour"] = SyncUnknownParts.Field(json: #"{"at":\#(at),"v":"red"}"#, changedAt: nil)
        let bytes = try VaultSyncTables.json(SyncEntryStateDTO(state))
        let (exact, decoded) = Self.read(bytes)
        #expect(exact == nil)
        #expect(decoded?.toDomain()?.record.unknown.fields["colour"] != nil)
    }

    @Test("damaged bytes (each byte changed, or cut short) never read differently from JSONDecoder, and never trap")
    func damagedBytes() throws {
        var random = SplitMix(seed: Self.seed &+ 99)
        var declined = 0
        for _ in 0..<40 {
            let bytes = try VaultSyncTables.json(SyncEntryStateDTO(RandomSyncState.make(using: &random)))
            for _ in 0..<50 {
                var damaged = bytes
                let position = Int.random(in: 0..<damaged.count, using: &random)
                if Bool.random(using: &random) {
                    damaged[position] = UInt8.random(in: 0...255, using: &random)
                } else {
                    damaged = Array(damaged[..<position])
                }
                let (exact, decoded) = Self.read(damaged)
                if let exact {
                    #expect(decoded != nil)
                    #expect(exact.toDomain() == decoded?.toDomain())
                } else {
                    declined += 1
                }
            }
        }
        #expect(declined > 0)
    }
}

/// Random sync states for the readers' tests: every field, text from the hostile corpus and
/// from JSON's awkward characters, stamps at the ends of their ranges.
enum RandomSyncState {
    static let characters: [String] = [
        "a", "Z", "0", " ", "\"", "\\", "/", "\n", "\t", "\r", "\u{1}", "\u{8}", "\u{C}", "\u{1F}", "\u{7F}", "\u{85}", "é", "日",
        "🔑", "\u{202E}", "\u{1B}",
    ]

    static func make(using random: inout SplitMix) -> SyncEntryState {
        let id = UUID(uuid: uuidBytes(using: &random))
        let record = self.record(id, using: &random)
        let base = Bool.random(using: &random) ? remote(id, using: &random) : nil
        let pushedOver = Bool.random(using: &random) ? remote(id, using: &random) : nil
        return SyncEntryState(record: record, base: base, pending: Bool.random(using: &random), pushedOver: pushedOver)
    }

    static func remote(_ id: UUID, using random: inout SplitMix) -> RemoteEntry {
        RemoteEntry(
            sequence: Int64.random(in: 0...Int64.max, using: &random), record: record(id, using: &random),
            version: UInt64.random(in: 1...UInt64.max, using: &random))
    }

    static func record(_ id: UUID, using random: inout SplitMix) -> SyncRecord {
        let kinds: [KeyMaterial.Kind] = [.totp(period: Int.random(in: 1...86_400, using: &random)), .hotp, .steam]
        let kind = kinds.randomElement(using: &random)!
        let digits = kind == .steam ? AccountSpec.steamDigits : Int.random(in: AccountSpec.allowedDigits, using: &random)
        let secret = (0..<Int.random(in: 1...64, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
        let material = KeyMaterial(
            secret: Secret(bytes: secret), kind: kind, algorithm: [.sha1, .sha256, .sha512].randomElement(using: &random)!, digits: digits)
        var position = FractionalPosition.between(nil, nil)
        for _ in 0..<Int.random(in: 0...4, using: &random) { position = FractionalPosition.between(position, nil) }
        return SyncRecord(
            id: id, key: Stamped(material, changedAt: stamp(using: &random)), counter: UInt64.random(in: 0...UInt64.max, using: &random),
            issuer: Stamped(text(using: &random), changedAt: stamp(using: &random)),
            name: Stamped(text(using: &random), changedAt: stamp(using: &random)),
            note: Stamped(text(using: &random), changedAt: stamp(using: &random)),
            isFavorite: Stamped(Bool.random(using: &random), changedAt: stamp(using: &random)),
            groups: Stamped(
                Set((0..<Int.random(in: 0...3, using: &random)).map { _ in text(using: &random) }), changedAt: stamp(using: &random)),
            position: Stamped(position, changedAt: stamp(using: &random)),
            isDeleted: Stamped(Bool.random(using: &random), changedAt: stamp(using: &random)),
            keyHistory: (0..<Int.random(in: 0...3, using: &random)).map { _ in stamp(using: &random) })
    }

    static func stamp(using random: inout SplitMix) -> HybridTimestamp {
        let milliseconds: [Int64] = [0, 1, Int64.max, Int64.min, Int64.random(in: Int64.min...Int64.max, using: &random)]
        let counters: [UInt32] = [0, UInt32.max, UInt32.random(in: 0...UInt32.max, using: &random)]
        return HybridTimestamp(
            milliseconds: milliseconds.randomElement(using: &random)!, counter: counters.randomElement(using: &random)!,
            device: UUID(uuid: uuidBytes(using: &random)))
    }

    static func text(using random: inout SplitMix) -> String {
        if Int.random(in: 0..<4, using: &random) == 0 { return HostileText.corpus.randomElement(using: &random)!.text }
        return (0..<Int.random(in: 0...12, using: &random)).map { _ in characters.randomElement(using: &random)! }.joined()
    }

    static func uuidBytes(using random: inout SplitMix) -> uuid_t {
        let high = random.next()
        let low = random.next()
        return withUnsafeBytes(of: (high, low)) { bytes in
            (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9], bytes[10], bytes[11],
                bytes[12], bytes[13], bytes[14], bytes[15]
            )
        }
    }
}
