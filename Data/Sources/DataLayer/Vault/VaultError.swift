/// Why a vault cannot be opened or changed. Every case leaves the vault files untouched.
public enum VaultError: Error, Equatable, Sendable, CustomStringConvertible {
    case notInitialized(path: String)
    case alreadyExists(path: String)
    case wrongPassphrase
    case emptyPassphrase
    case notAVault(path: String)
    case damaged(path: String, reason: String)
    case headerTampered
    case entryDamaged(id: String)
    case newerFormat(found: Int, supported: Int)
    case unsupportedKDF(String)
    case busy
    case locked

    public var description: String {
        switch self {
        case .notInitialized(let path): "no vault at \(path): create one with `tokens init`"
        case .alreadyExists(let path): "a vault already exists at \(path); nothing was changed"
        case .wrongPassphrase: "wrong passphrase"
        case .emptyPassphrase: "the passphrase must not be empty"
        case .notAVault(let path): "\(path) is not a Tokens vault (not an SQLite file)"
        case .damaged(let path, let reason): "the vault at \(path) is damaged (\(reason)); restore it from a backup"
        case .headerTampered:
            "the vault header failed its integrity check: it was modified outside Tokens; restore it from a backup"
        case .entryDamaged(let id):
            "vault entry \(id) failed its integrity check (damaged or tampered); restore the vault from a backup"
        case .newerFormat(let found, let supported):
            "the vault uses format version \(found), newer than this tokens supports (\(supported)); upgrade tokens"
        case .unsupportedKDF(let name): "the vault's key slot uses an unsupported key derivation (\(name))"
        case .busy: "the vault stayed busy (another tokens is writing); try again"
        case .locked: "the vault is locked"
        }
    }
}
