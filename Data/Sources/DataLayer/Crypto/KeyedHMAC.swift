import Crypto
import Domain

/// An HMAC state with the key's inner and outer pads already hashed; each counter starts from
/// a copy of it, so the key costs nothing per code. Used for SHA-256 and SHA-512.
struct KeyedHMAC<H: HashFunction>: CounterMAC, @unchecked Sendable {
    // HMAC<H> is a value type; it is only ever copied, never shared mutably.
    let initial: HMAC<H>

    func authenticationCode(forCounter counter: UInt64) -> MACValue {
        var mac = initial
        withUnsafeBytes(of: counter.bigEndian) { mac.update(data: $0) }
        return MACValue(Array(mac.finalize()))
    }
}
