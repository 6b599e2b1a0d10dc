import Crypto
import Domain

/// An HMAC state with the key's inner and outer pads already hashed; each message starts from
/// a copy of it, so the key costs nothing per code. Used for SHA-256 and SHA-512.
struct KeyedHMAC<H: HashFunction>: KeyedMAC, @unchecked Sendable {
    // HMAC<H> is a value type; it is only ever copied, never shared mutably.
    let initial: HMAC<H>

    func withAuthenticationCode<Result>(
        for message: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> Result
    ) -> Result {
        var mac = initial
        mac.update(data: message)
        return mac.finalize().withUnsafeBytes(body)
    }
}
