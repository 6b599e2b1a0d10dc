import Domain
import Foundation
import Testing

@testable import DataLayer

/// The vault entry's JSON is written and read by hand: it must read back exactly as
/// JSONEncoder's does, and the hand-written reader must agree with JSONDecoder or step aside.
@Suite("Entry payload JSON")
struct EntryPayloadJSONTests {
    static let texts = [
        "", "plain", #"quote " and \ backslash"#, "tab\tnew\nline\r", "\u{0}\u{1}\u{1F}\u{7F}", "é ü 漢字 🙂",
        "\u{202E}bidi", "\u{1B}]52;c;eA==\u{07}", "/slash/", "\u{2028}\u{2029}",
    ]

    @Test("every kind and hostile text: decodes to the same payload as JSONEncoder's output", arguments: texts)
    func sameAsJSONEncoder(text: String) throws {
        for kind in [
            EntryPayloadDTO.KindDTO(type: "totp", period: 30, counter: nil), .init(type: "hotp", period: nil, counter: .max),
            .init(type: "steam", period: nil, counter: nil),
        ] {
            let payload = EntryPayloadDTO(
                issuer: text, account: text + "a", secret: "AAEC/w==", kind: kind, algorithm: "SHA512", digits: 10, note: text,
                groups: text.isEmpty ? [] : [text, "g2"], favorite: !text.isEmpty)
            let handWritten = try JSONDecoder().decode(EntryPayloadDTO.self, from: Data(payload.jsonBytes()))
            let encoded = try JSONDecoder().decode(EntryPayloadDTO.self, from: JSONEncoder().encode(payload))
            #expect(handWritten == payload)
            #expect(handWritten == encoded)
            #expect(try JSONSerialization.jsonObject(with: Data(payload.jsonBytes())) is [String: Any])
            #expect(EntryPayloadDTO(jsonBytes: payload.jsonBytes()) == payload)
        }
    }

    @Test("the reader steps aside (nil) for any other shape, so JSONDecoder reads older payloads")
    func readerStepsAside() throws {
        let payload = EntryPayloadDTO(
            issuer: "I", account: "a", secret: "AAEC", kind: .init(type: "totp", period: 30, counter: nil), algorithm: "SHA1",
            digits: 6, note: "", groups: ["g"], favorite: false)
        let written = payload.jsonBytes()
        // JSONEncoder's own output: other key order and escapes (\/).
        let encoded = try JSONEncoder().encode(payload)
        if Array(encoded) != written { #expect(EntryPayloadDTO(jsonBytes: encoded) == nil) }
        for broken in [
            Array(written.dropLast()), written + [UInt8(ascii: " ")],
            Array(
                String(decoding: written, as: UTF8.self)
                    .replacingOccurrences(of: "\"I\"", with: "\"\\u00e9\"").utf8),
            Array(String(decoding: written, as: UTF8.self).replacingOccurrences(of: "30", with: "-30").utf8),
            Array(String(decoding: written, as: UTF8.self).replacingOccurrences(of: "\"I\"", with: "\"\u{1}\"").utf8),
            // Not UTF-8 inside a string.
            Array(#"{"issuer":""#.utf8) + [0xFF] + Array(written.dropFirst(12)), [], Array("{}".utf8),
        ] {
            #expect(EntryPayloadDTO(jsonBytes: broken) == nil, "\(String(decoding: broken, as: UTF8.self))")
        }
        // Every prefix of a valid payload is refused, never a trap.
        for length in 0..<written.count { #expect(EntryPayloadDTO(jsonBytes: written.prefix(length)) == nil) }
    }

    @Test("seeded random payloads: the reader agrees with JSONDecoder on every one")
    func randomPayloads() throws {
        var seed: UInt64 = 0x5EED
        func next() -> UInt64 {
            seed &+= 0x9E37_79B9_7F4A_7C15
            var z = seed
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        let alphabet: [Character] = ["a", "Z", "0", " ", "\"", "\\", "/", "\n", "\u{0}", "\u{1F}", "\u{7F}", "é", "漢", "🙂", "\u{2028}"]
        func text() -> String { String((0..<Int(next() % 12)).map { _ in alphabet[Int(next() % UInt64(alphabet.count))] }) }
        for _ in 0..<500 {
            let kinds: [EntryPayloadDTO.KindDTO] = [
                .init(type: text(), period: Int(next() % 1000), counter: nil), .init(type: text(), period: nil, counter: next()),
                .init(type: text(), period: nil, counter: nil),
            ]
            let payload = EntryPayloadDTO(
                issuer: text(), account: text(), secret: text(), kind: kinds[Int(next() % 3)], algorithm: text(),
                digits: Int(next() % 100), note: text(), groups: (0..<Int(next() % 4)).map { _ in text() }, favorite: next() % 2 == 0)
            let bytes = payload.jsonBytes()
            #expect(EntryPayloadDTO(jsonBytes: bytes) == payload)
            #expect(try JSONDecoder().decode(EntryPayloadDTO.self, from: Data(bytes)) == payload)
        }
    }
}
