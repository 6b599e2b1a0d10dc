import Crypto
import Domain

/// HMAC-SHA1 (RFC 2104) with the key's inner and outer pads hashed once, when the account is
/// prepared. A code then costs exactly two SHA-1 compressions on the stack and no allocation,
/// which swift-crypto's `HMAC` cannot offer (each copy of its state allocates a new context).
///
/// Only the two compressions live here; the key schedule for long keys and any message longer
/// than one block (never the case for OTP) go through swift-crypto. Tests compare both paths
/// with swift-crypto's HMAC on random keys and messages.
struct PrecomputedHMACSHA1: KeyedMAC {
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

    func withAuthenticationCode<Result>(
        for message: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> Result
    ) -> Result {
        guard message.count <= SHA1Compression.maxOneBlockMessage else {
            return KeyedHMAC(initial: HMAC<Insecure.SHA1>(key: SymmetricKey(data: key)))
                .withAuthenticationCode(for: message, body)
        }
        return withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 16) { words in
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
            return withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 5) { digest in
                digest[0] = state.0.bigEndian
                digest[1] = state.1.bigEndian
                digest[2] = state.2.bigEndian
                digest[3] = state.3.bigEndian
                digest[4] = state.4.bigEndian
                return body(UnsafeRawBufferPointer(digest))
            }
        }
    }
}
