import Domain

/// A passphrase held in one buffer that is wiped when it is no longer used.
public final class Passphrase: @unchecked Sendable {
    /// The UTF-8 bytes; read them only inside `withBytes`.
    private var bytes: [UInt8]

    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    public convenience init(_ text: String) {
        self.init(Array(text.utf8))
    }

    public var isEmpty: Bool { bytes.isEmpty }

    /// How many characters (Unicode scalars) it has, counted without making a String of it.
    public var length: Int { bytes.reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) } }

    func withBytes<T>(_ body: ([UInt8]) throws -> T) rethrows -> T {
        try body(bytes)
    }

    /// Whether two passphrases are the same (for "type it again" checks).
    public func matches(_ other: Passphrase) -> Bool {
        bytes == other.bytes
    }

    deinit {
        bytes.wipe()
    }
}

extension Passphrase {
    /// A copy of the bytes, for APIs that need them (the caller wipes it).
    public func copyBytes() -> [UInt8] { withBytes { $0 } }
}
