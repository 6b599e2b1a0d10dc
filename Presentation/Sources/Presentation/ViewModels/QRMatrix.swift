import Domain

/// A QR code ready to draw: its size and which modules are dark.
public struct QRMatrix: Hashable, Sendable {
    public let size: Int
    private let code: QRCode

    public init(_ code: QRCode) {
        self.code = code
        self.size = code.size
    }

    public func isDark(_ row: Int, _ column: Int) -> Bool { code.isDark(row: row, column: column) }
}
