import Testing

@testable import DataLayer

/// Hex, the one encoder and decoder of the vault and the interop formats.
@Suite("Hex")
struct HexTests {
    @Test("every byte written and read back; digits of either case are read")
    func roundTrip() {
        let bytes = (0...255).map(UInt8.init)
        let text = Hex.string(bytes)
        #expect(text.count == 512)
        #expect(text == text.lowercased())
        #expect(Hex.bytes(text) == bytes)
        #expect(Hex.bytes(text.uppercased()) == bytes)
        #expect(Hex.bytes("") == [])
    }

    @Test(
        "an odd count of digits, a sign, a space or a non-hex character is nil",
        arguments: ["a", "abc", "+f", "-1", "0 ", "zz", "éé", "0x"])
    func refusesMalformed(_ text: String) {
        #expect(Hex.bytes(text) == nil)
    }
}
