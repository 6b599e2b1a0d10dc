import Presentation
import Testing

@testable import TerminalUI

@Suite("Key decoding")
struct KeyTests {
    @Test("decodes characters, control keys, arrows and UTF-8")
    func decoding() {
        #expect(Key.decodeAll(Array("q/".utf8)) == [.character("q"), .character("/")])
        #expect(Key.decodeAll([0x0D, 0x7F, 0x03]) == [.enter, .backspace, .controlC])
        #expect(Key.decodeAll([0x1B, 0x5B, 0x41, 0x1B, 0x5B, 0x42]) == [.up, .down])
        #expect(Key.decodeAll([0x09, 0x1B, 0x5B, 0x5A]) == [.tab, .backTab])
        #expect(Key.decodeAll([0x1B]) == [.escape])
        #expect(Key.decodeAll(Array("é".utf8)) == [.character("é")])
        #expect(Key.decodeAll([0x1B, 0x5B, 0x31, 0x3B, 0x35, 0x43, 0x61]) == [.unknown, .character("a")])
    }
}
