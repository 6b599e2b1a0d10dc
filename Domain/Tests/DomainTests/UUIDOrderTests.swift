import Domain
import DomainTestSupport
import Foundation
import Testing

/// The merge rules order devices and ids by their bytes, which must be the order of their
/// `uuidString`s that the rules were written with; and ids are read from text without
/// Foundation's parser, always to that parser's result.
@Suite("Ids ordered and read as their text is")
struct UUIDOrderTests {
    static func id(using random: inout SplitMix, alike other: UUID? = nil) -> UUID {
        var bytes = other?.bytes ?? (0..<16).map { _ in UInt8.random(in: 0...255, using: &random) }
        // Often the same but for one byte, so every position decides some comparisons.
        let position = Int.random(in: 0..<16, using: &random)
        bytes[position] = [0, 0x09, 0x0A, 0x9F, 0xA0, 0xFF, UInt8.random(in: 0...255, using: &random)].randomElement(using: &random)!
        return UUID(bytes: bytes)!
    }

    @Test("text is uuidString, on random ids and ids with the bytes at the edges of each digit")
    func textIsUUIDString() {
        var random = SplitMix(seed: 0x7E_47)
        for _ in 0..<5_000 {
            let id = Self.id(using: &random, alike: Bool.random(using: &random) ? Self.id(using: &random) : nil)
            #expect(id.text == id.uuidString)
        }
        for byte: UInt8 in [0x00, 0x09, 0x0A, 0x0F, 0x90, 0xA0, 0xF0, 0xFF] {
            let id = UUID(bytes: Array(repeating: byte, count: 16))!
            #expect(id.text == id.uuidString)
        }
    }

    @Test("ordersBefore is uuidString's order, on random ids and ids one byte apart")
    func orderOfText() {
        var random = SplitMix(seed: 0x0D_E5)
        for _ in 0..<5_000 {
            let first = Self.id(using: &random)
            let second = Bool.random(using: &random) ? Self.id(using: &random, alike: first) : Self.id(using: &random)
            #expect(first.ordersBefore(second) == (first.uuidString < second.uuidString))
            #expect(second.ordersBefore(first) == (second.uuidString < first.uuidString))
        }
        let id = Self.id(using: &random)
        #expect(!id.ordersBefore(id))
    }

    @Test("stamps that differ only in their device order as their devices' text does")
    func stampsByDevice() {
        var random = SplitMix(seed: 0x57_A4)
        for _ in 0..<1_000 {
            let (first, second) = (Self.id(using: &random), Self.id(using: &random))
            let (a, b) = (
                HybridTimestamp(milliseconds: 5, counter: 1, device: first), HybridTimestamp(milliseconds: 5, counter: 1, device: second)
            )
            #expect((a < b) == (first.uuidString < second.uuidString))
        }
    }

    @Test(
        "UUID(text:) reads what UUID(uuidString:) reads, and refuses what it refuses",
        arguments: [
            "E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "e621e1f8-c36c-495a-93fc-0c247a3e6e5f", "E621E1F8-c36c-495A-93fc-0C247A3E6E5F",
            "00000000-0000-0000-0000-000000000000", "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF", "E621E1F8C36C495A93FC0C247A3E6E5F",
            "E621E1F8-C36C-495A-93FC-0C247A3E6E5", "E621E1F8-C36C-495A-93FC-0C247A3E6E5F0", "E621E1F8-C36C-495A-93FC_0C247A3E6E5F",
            "G621E1F8-C36C-495A-93FC-0C247A3E6E5F", " E621E1F8-C36C-495A-93FC-0C247A3E6E5", "E621E1F8-C36C-495A-93FC-0C247A3E6E5\u{0}",
            "", "-", "E621E1F8-C36C-495A-93FC-0C247A3E6E5É", "{E621E1F8-C36C-495A-93FC-0C247A3E6E5F}",
        ])
    func readsLikeFoundation(text: String) {
        #expect(UUID(text: text) == UUID(uuidString: text))
    }

    @Test("UUID(text:) of random ids' text, in either case, is the id")
    func readsRandomIDs() {
        var random = SplitMix(seed: 0x7E_47)
        for _ in 0..<2_000 {
            let id = Self.id(using: &random)
            #expect(UUID(text: id.uuidString) == id)
            #expect(UUID(text: id.uuidString.lowercased()) == id)
        }
    }
}
