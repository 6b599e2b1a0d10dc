/// Port: turns text into a QR code. Data implements it in Swift (QREncoder).
public protocol QRCodeEncoder: Sendable {
    func encode(_ text: String) throws -> QRCode
}

/// A QR code as a square of dark (true) and light modules, quiet zone not included.
public struct QRCode: Hashable, Sendable {
    public let size: Int
    public let modules: [Bool]

    public init(size: Int, modules: [Bool]) {
        precondition(modules.count == size * size, "a QR code is square")
        self.size = size
        self.modules = modules
    }

    public func isDark(row: Int, column: Int) -> Bool {
        guard (0..<size).contains(row), (0..<size).contains(column) else { return false }
        return modules[row * size + column]
    }
}

/// Why a QR code could not be made.
public enum QRCodeError: Error, Equatable, Sendable, CustomStringConvertible {
    case tooLong

    public var description: String {
        switch self {
        case .tooLong: "the text is too long for a QR code"
        }
    }
}
