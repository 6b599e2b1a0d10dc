import Domain
import Testing

@testable import DataLayer

@Suite("QR codes")
struct QRCodeTests {
    @Test("each reference text gives libqrencode's code, module for module, with the same mask")
    func matchesLibQREncodeForTheSameMask() throws {
        for reference in QRReferenceCodes.all {
            let expected = Self.code(reference.rows)
            let code = try QREncoder().encode(reference.text, mask: Self.mask(of: expected))
            #expect(code.size == reference.version * 4 + 17, "version \(reference.version)")
            #expect(Self.rows(code) == reference.rows, "version \(reference.version)")
        }
    }

    @Test("the mask chosen scores no higher than libqrencode's, and is the same one for all but HELLO")
    func choosesTheLowestPenaltyMask() throws {
        for reference in QRReferenceCodes.all {
            let chosen = try QREncoder().encode(reference.text)
            let theirs = Self.code(reference.rows)
            let ours = QRPenalty(size: chosen.size, modules: chosen.modules).score
            #expect(ours <= QRPenalty(size: theirs.size, modules: theirs.modules).score, "version \(reference.version)")
            // libqrencode scores finder-like patterns its own way; for HELLO it picks another mask.
            if reference.text != "HELLO" { #expect(Self.rows(chosen) == reference.rows, "version \(reference.version)") }
        }
        let hello = try QREncoder().encode("HELLO")
        #expect(Self.mask(of: hello) != Self.mask(of: Self.code(QRReferenceCodes.all[0].rows)))
    }

    @Test("a short text is a version 1 code (21 modules) with its three finder patterns")
    func finderPatterns() throws {
        let code = try QREncoder().encode("HELLO")
        #expect(code.size == 21)
        for (top, left) in [(0, 0), (0, 14), (14, 0)] {
            // The finder pattern's outer ring is dark, the ring inside it light, the centre dark.
            #expect(code.isDark(row: top, column: left) && code.isDark(row: top + 6, column: left + 6))
            #expect(!code.isDark(row: top + 1, column: left + 1))
            #expect(code.isDark(row: top + 3, column: left + 3))
        }
    }

    @Test("2 331 bytes fit in version 40 (177 modules); one more is an error")
    func capacity() throws {
        #expect(try QREncoder().encode(String(repeating: "x", count: 2331)).size == 177)
        #expect(throws: QRCodeError.tooLong) { try QREncoder().encode(String(repeating: "x", count: 2332)) }
        #expect(throws: QRCodeError.tooLong) { try QREncoder().encode(String(repeating: "x", count: 5000)) }
    }

    @Test("Reed–Solomon: the generator of degree 2 is x² + 3x + 2, and GF(256) wraps at 0x11D")
    func reedSolomon() {
        #expect(ReedSolomon.generator(degree: 2) == [3, 2])
        #expect(ReedSolomon.multiply(0x80, 0x02) == 0x1D)
    }

    private static func rows(_ code: QRCode) -> [String] {
        (0..<code.size).map { row in String((0..<code.size).map { code.isDark(row: row, column: $0) ? "#" : "." }) }
    }

    private static func code(_ rows: [String]) -> QRCode {
        QRCode(size: rows.count, modules: rows.flatMap { $0.map { $0 == "#" } })
    }

    /// The mask number in a code's first copy of its format bits.
    private static func mask(of code: QRCode) -> Int {
        var bits = 0
        for index in 0...5 where code.isDark(row: index, column: 8) { bits |= 1 << index }
        if code.isDark(row: 7, column: 8) { bits |= 1 << 6 }
        if code.isDark(row: 8, column: 8) { bits |= 1 << 7 }
        if code.isDark(row: 8, column: 7) { bits |= 1 << 8 }
        for index in 9..<15 where code.isDark(row: 8, column: 14 - index) { bits |= 1 << index }
        return (bits ^ 0x5412) >> 10 & 7
    }
}
