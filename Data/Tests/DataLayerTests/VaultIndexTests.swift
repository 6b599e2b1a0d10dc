import Domain
import DomainTestSupport
import Foundation
import GRDB
import Testing

@testable import DataLayer

/// The sealed index (format 4, in pieces from format 5): a search reads, checks and decrypts
/// only the entries it matches, and
/// every way of changing the file that the manifest refused is still refused, for the rows a
/// search reads at once, for the others at the next read of every entry or write.
@Suite("The vault's sealed index")
struct VaultIndexTests {
    let folder = try! VaultFolder()

    /// A closed vault of accounts 1 to 3; the source of an open one is given to `body` first.
    private func makeVault(_ body: (VaultAccountDataSource) async throws -> Void = { _ in }) async throws {
        let vault = try folder.create()
        let source = VaultAccountDataSource(vault: vault)
        try await source.insertAll([1, 2, 3].map { VaultFolder.account($0) })
        try await body(source)
        try vault.close()
    }

    /// `body` with the vault opened again (by the read path, as every command opens it).
    private func withReopened(_ body: (VaultAccountDataSource) async throws -> Void) async throws {
        let vault = try Vault.open(at: folder.path, passphrase: Passphrase("correct horse"))
        defer { try? vault.close() }
        #expect(vault.readsThroughReadPath)
        try await body(VaultAccountDataSource(vault: vault))
    }

    private static func id(_ number: Int) -> String { VaultFolder.account(number).id.uuidString }

    @Test("a search decrypts only its matches: a damaged entry it does not match is found by the next full read, not by it")
    func searchReadsOnlyMatches() async throws {
        try await makeVault()
        try folder.tamper("UPDATE entry SET ciphertext = zeroblob(length(ciphertext)) WHERE id = ?", arguments: [Self.id(2)])
        try await withReopened { source async throws in
            #expect(try await source.search(AccountQuery("issuer 1")) == [VaultFolder.account(1)])
            await #expect(throws: VaultError.modified(.entries)) { try await source.search(AccountQuery("issuer 2")) }
            await #expect(throws: VaultError.modified(.entries)) { try await source.fetchAll() }
            await #expect(throws: VaultError.modified(.entries)) { try await source.insert(VaultFolder.account(4)) }
        }
        #expect(try folder.rows("SELECT id FROM entry").count == 3, "the refused write stored nothing")
    }

    @Test("an id lookup decrypts only the entries it names: a damaged entry it does not name is found by the next full read")
    func idLookupReadsOnlyNamed() async throws {
        try await makeVault()
        try folder.tamper("UPDATE entry SET ciphertext = zeroblob(length(ciphertext)) WHERE id = ?", arguments: [Self.id(2)])
        try await withReopened { source async throws in
            #expect(try await source.accounts(idPrefix: #require(AccountIDPrefix(Self.id(1)))) == [VaultFolder.account(1)])
            #expect(try await source.accounts(idPrefix: #require(AccountIDPrefix("ffff"))) == [])
            await #expect(throws: VaultError.modified(.entries)) {
                try await source.accounts(idPrefix: #require(AccountIDPrefix(Self.id(2))))
            }
            await #expect(throws: VaultError.modified(.entries)) { try await source.accounts(idPrefix: #require(AccountIDPrefix("0000"))) }
        }
    }

    @Test("a matching row rolled back to an older copy, or swapped with another, is refused by the search")
    func rolledBackOrSwapped() async throws {
        var old: Row?
        try await makeVault { source async throws in
            old = try folder.rows("SELECT updated_at, version, nonce, ciphertext FROM entry WHERE id = '\(Self.id(1))'")[0]
            var edited = VaultFolder.account(1)
            edited.note = "rotated"
            _ = try await source.replace(edited)
        }
        let saved = try #require(old)
        try folder.tamper(
            "UPDATE entry SET updated_at = ?, version = ?, nonce = ?, ciphertext = ? WHERE id = ?",
            arguments: [saved["updated_at"], saved["version"], saved["nonce"], saved["ciphertext"], Self.id(1)])
        try await withReopened { source async throws in
            await #expect(throws: VaultError.modified(.entries)) { try await source.search(AccountQuery("issuer 1")) }
            #expect(try await source.search(AccountQuery("issuer 3")) == [VaultFolder.account(3)])
        }
        try folder.tamper("UPDATE entry SET sort_order = 7 - sort_order WHERE id IN (?, ?)", arguments: [Self.id(2), Self.id(3)])
        try await withReopened { source async throws in
            await #expect(throws: VaultError.modified(.entries)) { try await source.search(AccountQuery("issuer 3")) }
            // Out of the index's order: the full read's check in place cannot decide, and the
            // whole index refuses the rows.
            await #expect(throws: VaultError.modified(.entries)) { try await source.fetchAll() }
        }
    }

    @Test("an id as the index stores it spells its row's id exactly: a UUID's canonical text, or a text id's bytes")
    func idSpells() {
        let uuid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
        for (stored, same, others) in [
            (
                uuid.uuidString, [uuid.uuidString],
                [uuid.uuidString.lowercased(), UUID().uuidString, String(uuid.uuidString.dropLast()), ""]
            ),
            ("not-a-uuid", ["not-a-uuid"], ["not-a-uui", "Not-a-uuid", uuid.uuidString]),
        ] {
            var bytes: [UInt8] = []
            VaultIndexBytes.appendID(stored, to: &bytes)
            bytes.withUnsafeBytes { buffer in
                var reader = VaultIndexBytes.Reader(bytes: buffer)
                let id = reader.id()
                #expect(id?.isUUID == (stored == uuid.uuidString))
                for text in same { #expect(id?.spells(text) == true, "\(text)") }
                for text in others { #expect(id?.spells(text) == false, "\(text)") }
            }
        }
    }

    /// The index's pieces as stored (every column), in order.
    private static func pieces(of folder: VaultFolder) throws -> [Row] {
        try folder.rows("SELECT id, haystacks, sealed FROM index_piece ORDER BY id")
    }

    /// Puts `pieces` in place of the index's pieces, outside Tokens.
    private func put(_ pieces: [Row]) throws {
        try folder.tamper("DELETE FROM index_piece")
        for row in pieces {
            try folder.tamper(
                "INSERT INTO index_piece (id, haystacks, sealed) VALUES (?, ?, ?)", arguments: [row["id"], row["haystacks"], row["sealed"]])
        }
    }

    @Test("an older copy of the index, another vault's, or none is refused by a search and by a full read")
    func indexReplaced() async throws {
        var older: [Row] = []
        try await makeVault { source async throws in
            older = try Self.pieces(of: folder)
            try await source.insert(VaultFolder.account(4))
        }
        let current = try Self.pieces(of: folder)
        try put(older)
        try await withReopened { source async throws in
            await #expect(throws: VaultError.modified(.entries)) { try await source.search(AccountQuery("issuer 1")) }
            await #expect(throws: VaultError.modified(.entries)) { try await source.fetchAll() }
        }

        let other = try VaultFolder()
        _ = try other.create()
        try put(try Self.pieces(of: other))
        try await withReopened { source async throws in
            await #expect(throws: VaultError.modified(.entries)) { try await source.search(AccountQuery("issuer")) }
        }

        try folder.tamper("DELETE FROM index_piece")
        try await withReopened { source async throws in
            await #expect(throws: VaultError.modified(.entries)) { try await source.search(AccountQuery("issuer 1")) }
        }
        try put(current)
        try await withReopened { source async throws in
            #expect(try await source.search(AccountQuery("issuer 4")) == [VaultFolder.account(4)], "the index put back as it was")
        }
    }

    @Test(
        "a piece of the index swapped, removed, added, moved, miscounted or from an older copy is refused by a search, an id lookup and a full read"
    )
    func pieceReplaced() async throws {
        // Notes of 2 000 bytes: 30 accounts' haystacks fill four pieces, and the rest a fifth.
        let accounts = (1...30).map { VaultFolder.account($0, note: String(repeating: "n\($0 % 10)", count: 1_000)) }
        let vault = try folder.create()
        let source = VaultAccountDataSource(vault: vault)
        try await source.insertAll(accounts)
        let older = try Self.pieces(of: folder)
        var edited = accounts[0]
        edited.note = "rotated"
        _ = try await source.replace(edited)
        try vault.close()
        let current = try Self.pieces(of: folder)
        #expect(older.count == 5 && current.count == 5)

        func refused(_ change: String, _ arguments: StatementArguments = []) async throws {
            try put(current)
            try folder.tamper(change, arguments: arguments)
            try await withReopened { source async throws in
                await #expect(throws: VaultError.modified(.entries), "\(change)") { try await source.search(AccountQuery("issuer 2")) }
                await #expect(throws: VaultError.modified(.entries), "\(change)") {
                    try await source.accounts(idPrefix: #require(AccountIDPrefix(Self.id(2))))
                }
                await #expect(throws: VaultError.modified(.entries), "\(change)") { try await source.fetchAll() }
            }
        }
        try await refused("UPDATE index_piece SET sealed = ? WHERE id = 1", [older[1]["sealed"]])
        try await refused("UPDATE index_piece SET haystacks = ?, sealed = ? WHERE id = 3", [current[1]["haystacks"], current[1]["sealed"]])
        try await refused(
            "UPDATE index_piece SET sealed = CASE id WHEN 1 THEN ? ELSE ? END WHERE id IN (1, 2)",
            [current[2]["sealed"], current[1]["sealed"]])
        try await refused("UPDATE index_piece SET haystacks = haystacks + 1 WHERE id = 2")
        try await refused("UPDATE index_piece SET haystacks = haystacks - 1 WHERE id = 0")
        try await refused("DELETE FROM index_piece WHERE id = 3")
        try await refused("DELETE FROM index_piece WHERE id = 0")
        try await refused("DELETE FROM index_piece WHERE id = 4")
        try await refused(
            "INSERT INTO index_piece (id, haystacks, sealed) VALUES (5, ?, ?)", [current[3]["haystacks"], current[3]["sealed"]])
        try await refused("UPDATE index_piece SET id = 6 WHERE id = 3")

        try put(current)
        try await withReopened { source async throws in
            let all = [edited] + accounts.dropFirst()
            #expect(try await source.search(AccountQuery("issuer 2")) == all.filter { AccountQuery("issuer 2").matches($0) })
            #expect(try await source.fetchAll() == all, "the pieces put back as they were")
        }
    }

    @Test("a row added or removed outside Tokens: a search of the others still answers, the next full read or write refuses")
    func addedOrRemoved() async throws {
        try await makeVault()
        try folder.tamper(
            "INSERT INTO entry SELECT ?, sort_order + 10, created_at, updated_at, nonce, ciphertext, version FROM entry WHERE id = ?",
            arguments: [Self.id(9), Self.id(1)])
        try await withReopened { source async throws in
            #expect(try await source.search(AccountQuery("issuer 2")) == [VaultFolder.account(2)])
            await #expect(throws: VaultError.modified(.entries)) { try await source.fetchAll() }
            await #expect(throws: VaultError.modified(.entries)) { try await source.remove(id: VaultFolder.account(2).id) }
        }
        try folder.tamper("DELETE FROM entry WHERE id IN (?, ?)", arguments: [Self.id(9), Self.id(3)])
        try await withReopened { source async throws in
            await #expect(throws: VaultError.modified(.entries)) { try await source.search(AccountQuery("issuer 3")) }
            await #expect(throws: VaultError.modified(.entries)) { try await source.fetchAll() }
        }
    }

    @Test("a sync row changed outside Tokens is refused by the next full read, as the manifest refused it")
    func syncRowChanged() async throws {
        try await makeVault()
        try folder.tamper("INSERT INTO sync_entry (id, version, nonce, ciphertext) VALUES (?, 1, x'00', x'00')", arguments: [Self.id(1)])
        try await withReopened { source async throws in
            await #expect(throws: VaultError.modified(.entries)) { try await source.fetchAll() }
        }
    }

    /// `index`'s parts read back, or nil.
    private static func decoded(_ sealedPart: [UInt8], _ chunks: [[UInt8]]) -> VaultIndex? {
        sealedPart.withUnsafeBytes { VaultIndex(sealedPart: $0, chunks: chunks.map { Data($0) }) }
    }

    @Test("both parts: every field comes back; a part cut, lengthened, moved or of another magic is no index")
    func encoding() throws {
        let entries = (0..<300).map { number in
            VaultIndex.Entry(
                id: number == 7 ? "ü" : VaultFolder.account(number).id.uuidString, digest: Array(repeating: UInt8(number % 250), count: 16),
                haystack: Array("issuer \(number)\nname\n".utf8))
        }
        let index = VaultIndex(entries: entries, sync: [.init(table: .account, id: "1", digest: Array(repeating: 3, count: 16))])
        let encoded = index.encoded()
        #expect(encoded.chunks.count == 2, "301 records: 256 and 45")
        #expect(Self.decoded(encoded.sealedPart, encoded.chunks) == index)
        let sealed = encoded.sealedPart
        for cut in [0, 3, 5, 9, sealed.count - 1] { #expect(Self.decoded(Array(sealed.prefix(cut)), encoded.chunks) == nil) }
        #expect(Self.decoded(sealed + [0], encoded.chunks) == nil)
        #expect(Self.decoded([0x58] + sealed.dropFirst(), encoded.chunks) == nil)
        #expect(Self.decoded(sealed, [encoded.chunks[0]]) == nil, "a chunk missing")
        #expect(Self.decoded(sealed, encoded.chunks.reversed()) == nil, "chunks moved")
        #expect(Self.decoded(sealed, [encoded.chunks[0], Array(encoded.chunks[1].dropLast())]) == nil, "a chunk cut")
        let found = try #require(sealed.withUnsafeBytes { VaultIndexView.matching(AccountQuery("ISSUER 7"), in: $0) })
        #expect(found.positions == (0..<300).filter { String($0).contains("7") })
        let empty = VaultIndex.empty.encoded()
        #expect(empty.chunks.isEmpty)
        #expect(Self.decoded(empty.sealedPart, []) == VaultIndex.empty)
    }

    @Test(
        "the search through the index finds exactly the haystacks a query matches: words that straddle two haystacks, repeat, or end the buffer"
    )
    func searchAgreesWithEveryHaystack() throws {
        var random = SplitMix(seed: 0x5EA2C4)
        let alphabet = Array("ab \n\u{1}".utf8)
        for round in 0..<200 {
            let haystacks = (0..<Int.random(in: 0...40, using: &random)).map { _ in
                // Some as long as "a" or "b" is, in bytes: their length in the buffer reads as a letter.
                (0..<Int.random(in: Bool.random(using: &random) ? 0...12 : 97...98, using: &random)).map { _ in
                    alphabet.randomElement(using: &random)!
                }
            }
            let entries = haystacks.enumerated().map { number, haystack in
                VaultIndex.Entry(id: VaultFolder.account(number).id.uuidString, digest: Array(repeating: 1, count: 16), haystack: haystack)
            }
            let words = (0..<Int.random(in: 0...3, using: &random)).map { _ in
                String((0..<Int.random(in: 1...4, using: &random)).map { _ in Bool.random(using: &random) ? "a" : "b" })
            }
            let query = AccountQuery(words.joined(separator: " "))
            let sealedPart = VaultIndex(entries: entries, sync: []).encoded().sealedPart
            let found = sealedPart.withUnsafeBytes { VaultIndexView.matching(query, in: $0) }
            let expected = haystacks.indices.filter { query.matches(haystack: haystacks[$0]) }
            #expect(found?.positions == expected, "round \(round): \(words) in \(haystacks)")
            // Read in pieces as stored, with and without their rows' counts (pieces without the
            // word passed, or walked): the same positions and layout.
            let size = Int.random(in: 1...300, using: &random)
            let pieces = sealedPart.withUnsafeBytes { VaultIndexView.pieces(of: $0, size: size) }
            for counted in [false, true] {
                var matcher = VaultIndexView.Matcher(query)
                for piece in pieces {
                    sealedPart[piece.range].withUnsafeBytes { matcher.read($0, haystacks: counted ? piece.haystacks : nil) }
                }
                #expect(matcher.finished?.positions == expected, "round \(round), pieces of \(size), \(counted): \(words) in \(haystacks)")
                #expect(matcher.finished?.layout.chunkHashes == found?.layout.chunkHashes)
            }
        }
    }

    @Test(
        "a sealed part is cut only between haystacks, in pieces no larger than asked unless one haystack is, its rest a piece of its own; a piece cut elsewhere or miscounted is no index"
    )
    func pieces() throws {
        let entries = (0..<500).map { number in
            VaultIndex.Entry(
                id: VaultFolder.account(number).id.uuidString, digest: Array(repeating: 1, count: 16),
                haystack: Array(String(repeating: "h", count: number == 250 ? 3_000 : number % 40).utf8))
        }
        let sealedPart = VaultIndex(entries: entries, sync: []).encoded().sealedPart
        let pieces = sealedPart.withUnsafeBytes { VaultIndexView.pieces(of: $0, size: 1_000) }
        let ranges = pieces.map(\.range)
        #expect(ranges.first?.lowerBound == 0 && ranges.last?.upperBound == sealedPart.count)
        #expect(zip(ranges, ranges.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound })
        #expect(ranges.dropLast().filter { $0.count > 1_000 }.count == 1, "the one haystack of 3 000 bytes")
        #expect(
            pieces.last?.haystacks == 0 && pieces.last?.range.count == 4 + 4 + 2 * 32, "the records' count and the chunks' hashes alone")
        #expect(pieces.dropLast().allSatisfy { $0.haystacks > 0 } && pieces.map(\.haystacks).reduce(0, +) == 500)
        var walker = VaultIndexView.Walker()
        var seen: [Int] = []
        for piece in pieces {
            sealedPart[piece.range].withUnsafeBytes {
                walker.read($0, haystacks: piece.haystacks) { position, _, _ in seen.append(position) }
            }
        }
        #expect(seen == Array(0..<500) && walker.finished?.entries == 500)
        var passed = VaultIndexView.Walker()
        for piece in pieces { sealedPart[piece.range].withUnsafeBytes { passed.pass($0, haystacks: piece.haystacks) } }
        #expect(passed.finished?.chunkHashes == walker.finished?.chunkHashes)

        // A piece whose row gives another count than it holds, walked: no whole sealed part.
        var miscounted = VaultIndexView.Walker()
        for (number, piece) in pieces.enumerated() {
            sealedPart[piece.range].withUnsafeBytes {
                miscounted.read($0, haystacks: piece.haystacks + (number == 1 ? 1 : 0)) { _, _, _ in }
            }
        }
        #expect(miscounted.finished == nil)

        // Cut inside a haystack: no whole sealed part.
        var inside = 0
        _ = sealedPart.withUnsafeBytes { VaultIndexView.walk($0) { _, start, count in if inside == 0, count >= 5 { inside = start + 2 } } }
        #expect(inside > 0)
        var cut = VaultIndexView.Walker()
        for piece in [0..<inside, inside..<sealedPart.count] { sealedPart[piece].withUnsafeBytes { cut.read($0) { _, _, _ in } } }
        #expect(cut.finished == nil)
    }

    @Test("the byte search finds the first occurrence at or after a place, as a search byte by byte does")
    func byteSearch() {
        var random = SplitMix(seed: 0xB17E5)
        for _ in 0..<2_000 {
            let bytes = (0..<Int.random(in: 0...70, using: &random)).map { _ in UInt8.random(in: 0x61...0x63, using: &random) }
            let needle = (0..<Int.random(in: 1...5, using: &random)).map { _ in UInt8.random(in: 0x61...0x63, using: &random) }
            let start = Int.random(in: 0...bytes.count, using: &random)
            let expected =
                bytes.indices.first { $0 >= start && $0 + needle.count <= bytes.count && Array(bytes[$0..<($0 + needle.count)]) == needle }
                ?? bytes.count
            #expect(
                bytes.withUnsafeBytes { VaultIndexView.offset(of: needle, in: $0, from: start) } == expected,
                "\(needle) in \(bytes) from \(start)")
        }
    }

    @Test("haystacks folded by another build are not searched: the caller reads every entry instead")
    func otherFolding() {
        let entry = VaultIndex.Entry(
            id: VaultFolder.account(1).id.uuidString, digest: Array(repeating: 1, count: 16), haystack: Array("x".utf8))
        var index = VaultIndex(entries: [entry], sync: [])
        #expect(index.encoded().sealedPart.withUnsafeBytes { VaultIndexView.matching(AccountQuery("x"), in: $0) }?.positions == [0])
        index.folding = VaultIndex.haystackVersion + 1
        #expect(index.encoded().sealedPart.withUnsafeBytes { VaultIndexView.matching(AccountQuery("x"), in: $0) } == nil)
    }

    @Test(
        "a chunk of the index changed, moved or removed outside Tokens is refused by a search that reads it, an id lookup and a full read")
    func chunkChanged() async throws {
        let vault = try folder.create()
        try await VaultAccountDataSource(vault: vault).insertAll((1...300).map { VaultFolder.account($0) })
        try vault.close()
        #expect(try folder.rows("SELECT id FROM index_chunk").count == 2)
        let first = try folder.rows("SELECT body FROM index_chunk WHERE id = 0")[0]
        try folder.tamper("UPDATE index_chunk SET body = ? WHERE id = 1", arguments: [first["body"]])
        try await withReopened { source async throws in
            let twelves = (1...300).filter { String($0).contains("12") }
            #expect(twelves.allSatisfy { $0 <= VaultIndex.chunkSize })
            #expect(try await source.search(AccountQuery("issuer 12")).count == twelves.count, "chunk 0 alone is read")
            await #expect(throws: VaultError.modified(.entries)) { try await source.search(AccountQuery("issuer 299")) }
            await #expect(throws: VaultError.modified(.entries)) { try await source.fetchAll() }
            // An id lookup reads every chunk of the entries' records.
            await #expect(throws: VaultError.modified(.entries)) {
                try await source.accounts(idPrefix: #require(AccountIDPrefix(Self.id(1))))
            }
        }
        try folder.tamper("DELETE FROM index_chunk WHERE id = 1")
        try await withReopened { source async throws in
            await #expect(throws: VaultError.modified(.entries)) { try await source.search(AccountQuery("issuer 299")) }
        }
    }
}
