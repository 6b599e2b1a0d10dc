/// The SHA-1 compression function (FIPS 180-4 §6.1.2) over one 64-byte block, for
/// `PrecomputedHMACSHA1`. Integer operations only: no table lookups and no branches on data.
enum SHA1Compression {
    typealias State = (UInt32, UInt32, UInt32, UInt32, UInt32)

    static let blockSize = 64
    /// The longest message that fits one block with its 0x80 byte and 64-bit length.
    static let maxOneBlockMessage = blockSize - 9
    static let initial: State = (0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0)

    /// The chaining value after one block of `key` (at most 64 bytes, zero-padded) XOR `byte`.
    static func absorbPad(_ key: [UInt8], byte: UInt8) -> State {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 16) { words in
            let w = words.baseAddress!
            for index in 0..<16 { w[index] = UInt32(byte) &* 0x0101_0101 }
            for (index, keyByte) in key.prefix(blockSize).enumerated() {
                w[index >> 2] ^= UInt32(keyByte) << (24 - 8 * UInt32(index & 3))
            }
            var state = initial
            compress(&state, w)
            return state
        }
    }

    /// Loads `message` (at most `maxOneBlockMessage` bytes) with SHA-1 padding into 16
    /// big-endian words; `precedingBytes` is how much the hash has absorbed before it.
    static func loadFinalBlock(_ message: UnsafeRawBufferPointer, precedingBytes: Int, into w: UnsafeMutablePointer<UInt32>) {
        for index in 0..<16 { w[index] = 0 }
        for (index, byte) in message.enumerated() {
            w[index >> 2] |= UInt32(byte) << (24 - 8 * UInt32(index & 3))
        }
        let end = message.count
        w[end >> 2] |= 0x80 << (24 - 8 * UInt32(end & 3))
        let bits = UInt64(precedingBytes + message.count) * 8
        w[14] = UInt32(truncatingIfNeeded: bits >> 32)
        w[15] = UInt32(truncatingIfNeeded: bits)
    }

    /// Compresses the 16 words at `w` (overwritten as the message schedule) into `state`.
    @inline(__always)
    static func compress(_ state: inout State, _ w: UnsafeMutablePointer<UInt32>) {
        var (a, b, c, d, e) = state
        @inline(__always) func round(_ t: Int, _ f: UInt32, _ k: UInt32) {
            let s = t & 15
            if t >= 16 {
                w[s] = rotate(w[(s + 13) & 15] ^ w[(s + 8) & 15] ^ w[(s + 2) & 15] ^ w[s], 1)
            }
            let temp = rotate(a, 5) &+ f &+ e &+ k &+ w[s]
            e = d
            d = c
            c = rotate(b, 30)
            b = a
            a = temp
        }
        for t in 0..<20 { round(t, (b & c) | (~b & d), 0x5A82_7999) }
        for t in 20..<40 { round(t, b ^ c ^ d, 0x6ED9_EBA1) }
        for t in 40..<60 { round(t, (b & c) | (b & d) | (c & d), 0x8F1B_BCDC) }
        for t in 60..<80 { round(t, b ^ c ^ d, 0xCA62_C1D6) }
        state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d, state.4 &+ e)
    }

    @inline(__always)
    static func rotate(_ value: UInt32, _ count: UInt32) -> UInt32 {
        value << count | value >> (32 - count)
    }
}
