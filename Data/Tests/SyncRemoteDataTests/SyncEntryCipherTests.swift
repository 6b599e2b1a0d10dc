import Domain
import Foundation
import SyncRemoteData
import Testing

/// Entries as the server stores them: sealed under the sync key's entries key, bound to their
/// account, id and key version, padded so sizes say little.
@Suite("Sync entry cipher")
struct SyncEntryCipherTests {
    static let account = UUID(uuidString: "5F0C3A2E-8B1D-4E6F-9A7B-0C1D2E3F4A5B")!
    static let keys = SyncKeys(key: SyncKey(bytes: Array(repeating: 0x42, count: 32))!, account: account)
    static let device = UUID(uuidString: "00000000-0000-4000-8000-0000000000AA")!

    static func record(_ id: UUID = UUID(uuidString: "00000000-0000-4000-8000-000000000001")!, note: String = "") -> SyncRecord {
        let at = HybridTimestamp(milliseconds: 1_700_000_000_000, counter: 3, device: device)
        return SyncRecord(
            id: id,
            key: Stamped(
                KeyMaterial(
                    secret: Secret(bytes: Array("12345678901234567890".utf8)), kind: .totp(period: 30), algorithm: .sha256, digits: 8),
                changedAt: at),
            counter: 0, issuer: Stamped("GitHub", changedAt: at), name: Stamped("me@example.com", changedAt: at),
            note: Stamped(note, changedAt: at), isFavorite: Stamped(true, changedAt: at), groups: Stamped(["work", "code"], changedAt: at),
            position: Stamped(FractionalPosition("U3")!, changedAt: at), isDeleted: Stamped(false, changedAt: at))
    }

    @Test("a record goes through sealing and opening unchanged, and its ciphertext holds none of it in the clear")
    func roundTrip() throws {
        let record = Self.record()
        let sealed = try SyncEntryCipher.seal(record, version: 3, keys: Self.keys)
        #expect(sealed.nonce.count == 12)
        let opened = try SyncEntryCipher.open(
            entry: record.id, keyVersion: Self.keys.version, nonce: sealed.nonce, ciphertext: sealed.ciphertext, keys: Self.keys)
        #expect(opened.record == record && opened.version == 3)
        let text = String(decoding: sealed.ciphertext, as: UTF8.self)
        #expect(!text.contains("GitHub") && !text.contains("me@example.com"))
    }

    @Test(
        "every kind an account can have goes through unchanged: TOTP, HOTP with its counter, Steam's 5 digits; 6 to 10 digits",
        arguments: [
            (KeyMaterial.Kind.steam, 5, UInt64(0)), (.hotp, 6, 41), (.totp(period: 60), 10, 0), (.totp(period: 15), 7, 0),
        ])
    func everyKind(kind: KeyMaterial.Kind, digits: Int, counter: UInt64) throws {
        var record = Self.record()
        record.key.value = KeyMaterial(secret: Secret(bytes: [1, 2, 3, 4, 5]), kind: kind, algorithm: .sha1, digits: digits)
        record.counter = counter
        let sealed = try SyncEntryCipher.seal(record, version: 1, keys: Self.keys)
        let opened = try SyncEntryCipher.open(
            entry: record.id, keyVersion: Self.keys.version, nonce: sealed.nonce, ciphertext: sealed.ciphertext, keys: Self.keys)
        #expect(opened.record == record)
    }

    @Test("the stamps of the keys a key replaced go through unchanged; a record without it (an older build's) opens without it")
    func keyHistory() throws {
        var record = Self.record()
        record.keyHistory = [
            HybridTimestamp(milliseconds: 1_600_000_000_001, counter: 0, device: Self.device),
            HybridTimestamp(milliseconds: 1_600_000_000_000, counter: 1, device: Self.device),
        ]
        let sealed = try SyncEntryCipher.seal(record, version: 2, keys: Self.keys)
        let opened = try SyncEntryCipher.open(
            entry: record.id, keyVersion: Self.keys.version, nonce: sealed.nonce, ciphertext: sealed.ciphertext, keys: Self.keys)
        #expect(opened.record == record && opened.record.keyHistory.count == 2)
        let older = try SyncEntryCipher.seal(Self.record(), version: 2, keys: Self.keys)
        let openedOlder = try SyncEntryCipher.open(
            entry: record.id, keyVersion: Self.keys.version, nonce: older.nonce, ciphertext: older.ciphertext, keys: Self.keys)
        #expect(openedOlder.record.keyHistory.isEmpty)
    }

    @Test("sizes come in steps of 256 bytes: notes of different lengths within a step look alike")
    func padding() throws {
        let short = try SyncEntryCipher.seal(Self.record(note: "a"), version: 1, keys: Self.keys).ciphertext.count
        let longer = try SyncEntryCipher.seal(Self.record(note: String(repeating: "b", count: 40)), version: 1, keys: Self.keys).ciphertext
            .count
        #expect(short == longer && (short - 16) % 256 == 0)
        let much = try SyncEntryCipher.seal(Self.record(note: String(repeating: "c", count: 400)), version: 1, keys: Self.keys).ciphertext
            .count
        #expect(much > short && (much - 16) % 256 == 0)
    }

    @Test("another entry's id, another account, another key version, another key or one changed byte: a corrupt entry")
    func bound() throws {
        let record = Self.record()
        let sealed = try SyncEntryCipher.seal(record, version: 3, keys: Self.keys)
        let other = UUID(uuidString: "00000000-0000-4000-8000-000000000002")!
        let otherAccount = SyncKeys(key: SyncKey(bytes: Array(repeating: 0x42, count: 32))!, account: other)
        let otherKey = SyncKeys(key: SyncKey(bytes: Array(repeating: 0x43, count: 32))!, account: Self.account)
        var tampered = sealed.ciphertext
        tampered[5] ^= 1
        let attempts: [(UUID, Int, [UInt8], SyncKeys)] = [
            (other, 1, sealed.ciphertext, Self.keys), (record.id, 1, sealed.ciphertext, otherAccount),
            (record.id, 2, sealed.ciphertext, Self.keys), (record.id, 1, sealed.ciphertext, otherKey),
            (record.id, 1, tampered, Self.keys),
        ]
        for (id, version, ciphertext, keys) in attempts {
            #expect(throws: SyncError.corruptEntry(id: id.uuidString)) {
                try SyncEntryCipher.open(entry: id, keyVersion: version, nonce: sealed.nonce, ciphertext: ciphertext, keys: keys)
            }
        }
    }

    @Test("the auth key is derived apart from the entries key: the same for the same sync key and account, another for another account")
    func keys() {
        let again = SyncKeys(key: SyncKey(bytes: Array(repeating: 0x42, count: 32))!, account: Self.account)
        let elsewhere = SyncKeys(key: SyncKey(bytes: Array(repeating: 0x42, count: 32))!, account: UUID())
        #expect(again.authKey == Self.keys.authKey && again.authKey.count == 32)
        #expect(elsewhere.authKey != Self.keys.authKey && Self.keys.authKey != Array(repeating: 0x42, count: 32))
    }
}
