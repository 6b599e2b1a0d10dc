import Crypto
import Domain
import Foundation
import SyncRecordCoding

/// An entry's encryption for the server: the record as JSON, padded to a multiple of 256 bytes
/// (so sizes say little), sealed with AES-256-GCM under the sync entries key. The associated
/// data binds the ciphertext to its sync account, its entry id and its key version: the server
/// cannot move one entry's ciphertext onto another, nor pass it off under another key version.
public enum SyncEntryCipher {
    /// Plaintexts are padded to a multiple of this.
    static let paddingStep = 256

    /// `record` at `version` sealed for the server: the nonce and the ciphertext (with its tag).
    public static func seal(_ record: SyncRecord, version: UInt64, keys: SyncKeys) throws -> (nonce: [UInt8], ciphertext: [UInt8]) {
        var plaintext = try paddedJSON(SyncRecordDTO(record, version: version))
        defer { plaintext.wipe() }
        let box = try AES.GCM.seal(
            plaintext, using: keys.entries, nonce: AES.GCM.Nonce(),
            authenticating: additionalData(account: keys.account, entry: record.id, keyVersion: keys.version))
        return (Array(box.nonce), Array(box.ciphertext + box.tag))
    }

    /// The record and version the server's entry `id` holds; `corruptEntry` when it does not
    /// open (another key, another entry's ciphertext, any change) or does not read.
    public static func open(
        entry id: UUID, keyVersion: Int, nonce: [UInt8], ciphertext: [UInt8], keys: SyncKeys
    ) throws(SyncError) -> (record: SyncRecord, version: UInt64) {
        var corrupt: SyncError { .corruptEntry(id: id.text) }
        guard ciphertext.count >= 16, let nonce = try? AES.GCM.Nonce(data: nonce),
            let box = try? AES.GCM.SealedBox(nonce: nonce, ciphertext: ciphertext.dropLast(16), tag: ciphertext.suffix(16)),
            var plaintext = try? AES.GCM.open(
                box, using: keys.entries, authenticating: additionalData(account: keys.account, entry: id, keyVersion: keyVersion))
        else { throw corrupt }
        defer { plaintext.wipe() }
        guard let json = unpadded(plaintext), let dto = read(json), let record = dto.toDomain(), record.id == id, dto.version > 0
        else { throw corrupt }
        return (record, dto.version)
    }

    /// The record as JSON with sorted keys, padded: written by hand (`SyncRecordDTO.writeExactJSON`)
    /// so that `read` takes its direct path; one with keys only a newer version knows, by JSONEncoder.
    static func paddedJSON(_ dto: SyncRecordDTO) throws -> Data {
        var writer = ExactJSONWriter(capacity: dto.exactJSONRoom)
        defer { writer.wipe() }
        if dto.writeExactJSON(into: &writer) { return padded(writer.bytes) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        var json = try encoder.encode(dto)
        defer { json.wipe() }
        return padded(json)
    }

    /// The record `json` holds: read directly when it is what `paddedJSON` writes, as every build
    /// since this one seals; through JSONDecoder otherwise (older builds wrote the keys in any
    /// order). JSONDecoder on every pulled entry was a tenth of a join.
    static func read(_ json: Data) -> SyncRecordDTO? {
        var reader = ExactJSONReader(Array(json))
        defer { reader.wipe() }
        if let dto = SyncRecordDTO(exactJSON: &reader), reader.atEnd { return dto }
        return try? JSONDecoder().decode(SyncRecordDTO.self, from: json)
    }

    static func additionalData(account: UUID, entry: UUID, keyVersion: Int) -> Data {
        Data("tokens/sync/entry/v1".utf8) + account.bytes + entry.bytes
            + Data((0..<8).reversed().map { UInt8(truncatingIfNeeded: UInt64(keyVersion) >> ($0 * 8)) })
    }

    /// A 4-byte big-endian length, the bytes, then zeros to the next step.
    static func padded(_ data: some Collection<UInt8>) -> Data {
        var out = Data(capacity: data.count + paddingStep)
        let count = UInt32(data.count)
        out.append(contentsOf: [
            UInt8(count >> 24), UInt8(truncatingIfNeeded: count >> 16), UInt8(truncatingIfNeeded: count >> 8),
            UInt8(truncatingIfNeeded: count),
        ])
        out.append(contentsOf: data)
        out.append(contentsOf: [UInt8](repeating: 0, count: (paddingStep - out.count % paddingStep) % paddingStep))
        return out
    }

    static func unpadded(_ data: Data) -> Data? {
        guard data.count >= 4 else { return nil }
        let bytes = Array(data.prefix(4))
        let count = Int(bytes[0]) << 24 | Int(bytes[1]) << 16 | Int(bytes[2]) << 8 | Int(bytes[3])
        guard count <= data.count - 4 else { return nil }
        return data.dropFirst(4).prefix(count)
    }
}
