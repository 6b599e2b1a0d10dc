/// The bytes of one HMAC, at most 64 (SHA-512's size), held in the value itself: making a code
/// allocates nothing.
public struct MACValue: Sendable, Hashable {
    /// The largest MAC a value holds, in bytes.
    public static let capacity = 64

    /// How many bytes the MAC has: 20, 32 or 64 for SHA-1, SHA-256 and SHA-512.
    public let count: Int
    /// The bytes, eight to a word, the first byte in a word's most significant bits.
    private let words: SIMD8<UInt64>

    /// A MAC from its bytes packed eight to a word, most significant first (as SHA digests are
    /// defined); the bytes past `count` must be zero.
    public init(bigEndianWords words: SIMD8<UInt64>, count: Int) {
        precondition((0...Self.capacity).contains(count), "a MAC has at most \(Self.capacity) bytes")
        self.words = words
        self.count = count
    }

    /// A MAC from its bytes.
    public init(_ bytes: [UInt8]) {
        precondition(bytes.count <= Self.capacity, "a MAC has at most \(Self.capacity) bytes")
        var words = SIMD8<UInt64>()
        for (index, byte) in bytes.enumerated() {
            words[index >> 3] |= UInt64(byte) << Self.shift(index)
        }
        self.init(bigEndianWords: words, count: bytes.count)
    }

    /// The byte at `index`, from 0 to `count - 1`.
    public subscript(index: Int) -> UInt8 {
        precondition(index >= 0 && index < count, "byte \(index) of a \(count)-byte MAC")
        return UInt8(truncatingIfNeeded: words[index >> 3] >> Self.shift(index))
    }

    /// The bytes, as an array.
    public var bytes: [UInt8] { (0..<count).map { self[$0] } }

    private static func shift(_ index: Int) -> UInt64 { UInt64(56 - 8 * (index & 7)) }
}
