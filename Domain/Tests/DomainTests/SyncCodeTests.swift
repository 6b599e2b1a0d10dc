import Domain
import Foundation
import Testing

/// The sync code another machine joins with: a round trip, tolerant reading, and a clear
/// refusal of every typo, never repeating the code.
@Suite("Sync code")
struct SyncCodeTests {
    static let code = SyncCode(
        account: UUID(uuidString: "5F0C3A2E-8B1D-4E6F-9A7B-0C1D2E3F4A5B")!,
        key: SyncKey(bytes: (0..<32).map { UInt8($0 * 7 & 0xFF) })!)

    @Test("the text is 85 Base32 characters in groups of five, and reads back")
    func roundTrip() throws {
        let text = Self.code.text
        #expect(text.split(separator: " ").count == 17 && text.replacingOccurrences(of: " ", with: "").count == 85)
        #expect(try SyncCode(parsing: text) == Self.code)
    }

    @Test("read as people copy it: lower case, dashes, line breaks, and 0 1 8 for O I B")
    func tolerant() throws {
        let messy =
            Self.code.text.lowercased().replacingOccurrences(of: " ", with: "-").replacingOccurrences(of: "o", with: "0")
            .replacingOccurrences(of: "i", with: "1") + "\n"
        #expect(try SyncCode(parsing: messy) == Self.code)
    }

    @Test("every single-character typo and every swap of two neighbours is caught by the checksum")
    func typos() throws {
        let symbols = Array(Self.code.text.replacingOccurrences(of: " ", with: ""))
        for index in symbols.indices {
            var typo = symbols
            typo[index] = typo[index] == "A" ? "B" : "A"
            #expect(throws: SyncCodeError.self) { try SyncCode(parsing: String(typo)) }
            if index + 1 < symbols.count, symbols[index] != symbols[index + 1] {
                var swapped = symbols
                swapped.swapAt(index, index + 1)
                #expect(throws: SyncCodeError.checksumMismatch) { try SyncCode(parsing: String(swapped)) }
            }
        }
        #expect(throws: SyncCodeError.wrongLength(84)) { try SyncCode(parsing: String(symbols.dropLast())) }
        #expect(throws: SyncCodeError.notBase32) { try SyncCode(parsing: String(symbols.dropLast()) + "9") }
    }

    @Test("its descriptions never show the key")
    func redacted() {
        #expect("\(Self.code)" == "SyncCode(redacted)" && "\(Self.code.key)" == "SyncKey(redacted)")
        #expect(!String(describing: SyncCodeError.checksumMismatch).contains(Self.code.text.prefix(5)))
    }
}
