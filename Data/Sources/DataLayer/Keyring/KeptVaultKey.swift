import Crypto
import Foundation

/// What `tokens unlock` keeps in a keyring for one vault: a format byte, the vault id, when it
/// expires (seconds since 1970, big-endian) and the master key. Never the passphrase.
struct KeptVaultKey {
    static let format: UInt8 = 1
    static let length = 1 + 16 + 8 + 32

    let vaultID: Data
    let expires: Date
    let master: SymmetricKey

    /// The payload; the caller wipes it once stored.
    func encoded() -> [UInt8] {
        var bytes: [UInt8] = [Self.format]
        bytes += vaultID
        let seconds = UInt64(max(0, expires.timeIntervalSince1970.rounded(.up)))
        bytes += (0..<8).map { UInt8(truncatingIfNeeded: seconds >> (56 - 8 * UInt64($0))) }
        master.withUnsafeBytes { bytes += $0 }
        return bytes
    }

    /// The key in `payload`, or nil when it is not a key of this format for `vaultID` (a key
    /// kept under this vault's name but made for another vault is never used).
    init?(decoding payload: [UInt8], for vaultID: Data) {
        guard payload.count == Self.length, payload[0] == Self.format, vaultID.count == 16,
            payload[1..<17].elementsEqual(vaultID)
        else { return nil }
        let seconds = payload[17..<25].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        self.vaultID = vaultID
        self.expires = Date(timeIntervalSince1970: TimeInterval(seconds))
        self.master = SymmetricKey(data: payload[25...])
    }

    init(vaultID: Data, expires: Date, master: SymmetricKey) {
        self.vaultID = vaultID
        self.expires = expires
        self.master = master
    }
}
