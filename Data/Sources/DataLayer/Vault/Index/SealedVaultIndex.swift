import Crypto
import Domain
import Foundation
import GRDB

/// The `entry_index` row: the index's sealed part (`VaultIndex`) sealed with AES-256-GCM under
/// the entries key (its associated data binds the vault), stored as one blob (nonce, ciphertext,
/// tag: read into one buffer and opened from it). The header's manifest, under the header's MAC, is the `binding`
/// of its nonce and tag; since no other ciphertext opens under that nonce with that tag, a
/// header vouches for exactly one index, without hashing it.
struct SealedVaultIndex: Sendable, Equatable {
    /// Nonce, ciphertext and tag.
    let sealed: Data

    static func additionalData(vaultID: Data) -> Data {
        CanonicalEncoding.utf8("tokens/index/v1") + CanonicalEncoding.bytes(vaultID)
    }

    static func seal(_ plaintext: [UInt8], keys: VaultKeys) throws -> SealedVaultIndex {
        let sealed = try VaultCrypto.seal(plaintext, key: keys.entries, authenticating: additionalData(vaultID: keys.vaultID))
        return SealedVaultIndex(sealed: sealed.nonce + sealed.ciphertext)
    }

    /// What the header's manifest holds in format 4.
    var binding: Data { sealed.withUnsafeBytes(Self.binding) }

    /// The binding of a stored sealed part (nonce, ciphertext, tag).
    static func binding(of sealed: UnsafeRawBufferPointer) -> Data {
        // Copied byte by byte: `Data(sealed.prefix(12))` instantiates generic metadata at run
        // time, a tenth of a millisecond of every command.
        var bytes: [UInt8] = []
        CanonicalEncoding.appendUTF8("tokens/index-binding/v1", to: &bytes)
        for (start, count) in [(0, 12), (sealed.count - 16, 16)] where sealed.count >= 28 {
            CanonicalEncoding.appendInteger(count, to: &bytes)
            for offset in start..<(start + count) { bytes.append(sealed[offset]) }
        }
        return Data(SHA256.hash(data: bytes))
    }

    /// `body` with the plaintext of the stored sealed part, if it is the one `header` vouches
    /// for and it opens under `keys`; `modified(.entries)` else (when there is none, or `body`
    /// throws). The ciphertext is taken where SQLite holds it, and opened once SQLite's buffer
    /// is released (at 10 000 accounts the plaintext, 140 KB, then takes its memory instead of
    /// pages of its own); the plaintext is wiped after.
    static func open<T>(in db: some VaultQuerying, keys: VaultKeys, header: VaultHeader, _ body: (UnsafeRawBufferPointer) throws -> T)
        throws -> T
    {
        var box: AES.GCM.SealedBox?
        let rows: [Void]? = try? db.rows("SELECT sealed FROM entry_index WHERE id = 1") { row in
            try row.withBlob(0) { sealed in
                guard sealed.count >= 28, let base = sealed.baseAddress, binding(of: sealed) == header.manifest else { return }
                let combined = Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: base), count: sealed.count, deallocator: .none)
                box = try? AES.GCM.SealedBox(combined: combined)
            }
        }
        guard let rows, rows.count == 1, let box,
            var plaintext = try? AES.GCM.open(box, using: keys.entries, authenticating: additionalData(vaultID: keys.vaultID))
        else { throw VaultError.modified(.entries) }
        defer { plaintext.wipe() }
        do { return try plaintext.withUnsafeBytes(body) } catch { throw VaultError.modified(.entries) }
    }

    /// Stores this index in place of the one there (or as the first).
    func write(_ db: Database) throws {
        try VaultRows.execute(db, "INSERT OR REPLACE INTO entry_index (id, sealed) VALUES (1, ?)", [sealed])
    }
}

extension VaultIndex {
    /// The index `header` vouches for in `db`, both parts; `modified(.entries)` if the sealed
    /// part does not open, or the chunks are not the ones it hashes.
    static func read(_ db: some VaultQuerying, keys: VaultKeys, header: VaultHeader) throws -> VaultIndex {
        let stored = try db.rows("SELECT id, body FROM index_chunk ORDER BY id") { row in (try row.integer(0), try row.blob(1)) }
        guard stored.enumerated().allSatisfy({ $0.offset == $0.element.0 }),
            let index = try SealedVaultIndex.open(
                in: db, keys: keys, header: header, { VaultIndex(sealedPart: $0, chunks: stored.map(\.1)) })
        else { throw VaultError.modified(.entries) }
        return index
    }

    /// The index of the rows in `db` now: each entry's haystack taken from `previous` where
    /// its row is the one `previous` indexed, else from the entry decrypted under `keys`.
    static func made(from db: some VaultQuerying, keys: VaultKeys, previous: VaultIndex?) throws -> VaultIndex {
        var known: [String: VaultIndex.Entry] = [:]
        if let previous, previous.folding == haystackVersion {
            known.reserveCapacity(previous.entries.count)
            for entry in previous.entries { known[entry.id] = entry }
        }
        let entries = try EntryTable.all(db).map { record in
            let digest = VaultRowDigest.entry(record)
            if let entry = known[record.id], entry.digest == digest { return entry }
            let account = try EntryCipher.open(record, keys: keys)
            return VaultIndex.Entry(id: record.id, digest: digest, haystack: AccountQuery.haystack(for: account))
        }
        let sync = try SealedSyncRow.fetchAll(db).map { SyncRow(table: $0.table, id: $0.id, digest: VaultRowDigest.sync($0)) }
        return VaultIndex(entries: entries, sync: sync)
    }

    /// Whether every row in `db` now, and no other, is as this index says.
    func covers(_ records: [EntryRecord], sync rows: [SealedSyncRow]) -> Bool {
        guard records.count == entries.count, rows.count == sync.count else { return false }
        var digests: [String: [UInt8]] = [:]
        digests.reserveCapacity(entries.count)
        for entry in entries { digests[entry.id] = entry.digest }
        guard digests.count == records.count, records.allSatisfy({ digests[$0.id] == VaultRowDigest.entry($0) }) else { return false }
        return Set(sync) == Set(rows.map { SyncRow(table: $0.table, id: $0.id, digest: VaultRowDigest.sync($0)) })
    }

    /// Stores this index in `db` in place of `previous` (what `db` holds, if known): the sealed
    /// part, and the chunks that differ from `previous`'s. The header's manifest for it.
    func store(in db: Database, keys: VaultKeys, replacing previous: VaultIndex?) throws -> Data {
        let encoded = encoded()
        let before = previous?.encoded().chunks ?? []
        let write = try db.cachedStatement(sql: "INSERT OR REPLACE INTO index_chunk (id, body) VALUES (?, ?)")
        for (position, body) in encoded.chunks.enumerated() where position >= before.count || before[position] != body {
            try write.execute(arguments: [position, Data(body)])
        }
        try db.execute(sql: "DELETE FROM index_chunk WHERE id >= ?", arguments: [encoded.chunks.count])
        var plaintext = encoded.sealedPart
        defer { plaintext.wipe() }
        let sealed = try SealedVaultIndex.seal(plaintext, keys: keys)
        try sealed.write(db)
        return sealed.binding
    }
}
