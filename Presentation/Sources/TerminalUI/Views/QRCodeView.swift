import Presentation

/// Draws a QR code in a terminal with half-block characters: two modules a character cell,
/// with the four-module quiet zone scanners need. Dark modules are drawn as spaces on a light
/// background so it scans on dark and light terminals alike.
public enum QRCodeView {
    public static func render(_ matrix: QRMatrix) -> [String] {
        let quiet = 4
        let size = matrix.size + 2 * quiet
        func dark(_ row: Int, _ column: Int) -> Bool { matrix.isDark(row - quiet, column - quiet) }
        var lines: [String] = []
        for row in stride(from: 0, to: size, by: 2) {
            var line = ""
            for column in 0..<size {
                // Light is drawn (█), dark is blank: reversed, so the code reads as dark-on-light.
                switch (dark(row, column), dark(row + 1, column)) {
                case (false, false): line += "█"
                case (false, true): line += "▀"
                case (true, false): line += "▄"
                case (true, true): line += " "
                }
            }
            lines.append(line)
        }
        return lines
    }
}
