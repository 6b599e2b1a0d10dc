import Foundation

/// A vault's id (random, made when the vault is created, kept by every passphrase change):
/// what a kept key is named and checked by, so that one vault's key is never tried on another.
public struct VaultIdentity: Sendable, Equatable {
    let id: Data

    /// The name of the vault's key in a keyring: `tokens:vault:` and the id in hex.
    public var keyName: String {
        "tokens:vault:" + Hex.string(id)
    }
}
