import Domain
import Presentation
import Testing

@testable import TerminalUI

@Suite("QR code view")
struct QRCodeViewTests {
    @Test("two modules a line, a four-module quiet zone, dark drawn as blank")
    func render() {
        // 2×2: dark, light / light, dark.
        let lines = QRCodeView.render(QRMatrix(QRCode(size: 2, modules: [true, false, false, true])))
        #expect(lines.count == 5)  // (2 + 8) / 2
        #expect(lines.allSatisfy { $0.count == 10 })
        #expect(lines[0] == String(repeating: "█", count: 10))
        #expect(lines[2] == "████" + "▄▀" + "████")
    }
}
