import Crypto
import Domain

/// HMAC-SHA1 (RFC 2104) with the key's inner and outer pads hashed once, when the account is
/// prepared. A code then costs exactly two SHA-1 compressions on the stack and no allocation,
/// which swift-crypto's `HMAC` cannot offer (each copy of its state allocates a new context).
///
/// Only the two compressions live here; the key schedule for long keys and any message longer
/// than one block (never the case for OTP) go through swift-crypto. Tests compare both paths
/// with swift-crypto's HMAC on random keys and messages.
struct PrecomputedHMACSHA1: CounterMAC {
    /// The chaining value after the ipad block, and after the opad block.
    private let inner: SHA1Compression.State
    private let outer: SHA1Compression.State
    /// For the rare message longer than one block: the full HMAC through swift-crypto.
    private let key: [UInt8]

    init(key: [UInt8]) {
        let blockKey = key.count > SHA1Compression.blockSize ? Array(Insecure.SHA1.hash(data: key)) : key
        inner = SHA1Compression.absorbPad(blockKey, byte: 0x36)
        outer = SHA1Compression.absorbPad(blockKey, byte: 0x5C)
        self.key = key
    }

    /// HMAC(key, counter as 8 big-endian bytes): two compressions, nothing allocated.
    func authenticationCode(forCounter counter: UInt64) -> MACValue {
        let state = withUnsafeBytes(of: counter.bigEndian) { oneBlockMAC($0) }
        // A SHA-1 digest is its five state words, most significant byte first.
        let words = SIMD8<UInt64>(
            UInt64(state.0) << 32 | UInt64(state.1), UInt64(state.2) << 32 | UInt64(state.3), UInt64(state.4) << 32,
            0, 0, 0, 0, 0)
        return MACValue(bigEndianWords: words, count: 20)
    }

    /// The HMAC of any message (tests compare it with swift-crypto's).
    func authenticationCode(for message: [UInt8]) -> [UInt8] {
        guard message.count <= SHA1Compression.maxOneBlockMessage else {
            return Array(HMAC<Insecure.SHA1>.authenticationCode(for: message, using: SymmetricKey(data: key)))
        }
        let state = message.withUnsafeBytes { oneBlockMAC($0) }
        return [state.0, state.1, state.2, state.3, state.4].flatMap { word in
            (0..<4).map { UInt8(truncatingIfNeeded: word >> (24 - 8 * UInt32($0))) }
        }
    }

    /// The final state of the outer hash for a message that fits in one block with its padding.
    private func oneBlockMAC(_ message: UnsafeRawBufferPointer) -> SHA1Compression.State {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 16) { words in
            let w = words.baseAddress!
            // Inner hash: H(K ^ ipad || message), the message and its padding in one block.
            SHA1Compression.loadFinalBlock(message, precedingBytes: SHA1Compression.blockSize, into: w)
            var state = inner
            SHA1Compression.compress(&state, w)
            // Outer hash: H(K ^ opad || inner digest), the 20-byte digest padded in one block.
            w[0] = state.0
            w[1] = state.1
            w[2] = state.2
            w[3] = state.3
            w[4] = state.4
            w[5] = 0x8000_0000
            for index in 6..<15 { w[index] = 0 }
            w[15] = UInt32((SHA1Compression.blockSize + 20) * 8)
            state = outer
            SHA1Compression.compress(&state, w)
            return state
        }
    }
}
