@testable import DataLayer
import Domain
import Foundation
import Testing

/// The vault entry's JSON is written by hand: it must read back exactly as JSONEncoder's does.
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
        }
    }
}
