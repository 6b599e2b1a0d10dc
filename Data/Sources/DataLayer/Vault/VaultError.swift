/// Why a vault cannot be opened or changed. Every case leaves the vault files untouched.
public enum VaultError: Error, Equatable, Sendable, CustomStringConvertible {
    case notInitialized(path: String)
    case alreadyExists(path: String)
    case wrongPassphrase
    case emptyPassphrase
    case notAVault(path: String)
    /// An SQLite database with none of a vault's tables: another program's file.
    case foreignDatabase(path: String)
    /// `init` found a file that is not a Tokens vault where the vault goes.
    case occupied(path: String)
    case damaged(path: String, reason: String)
    case headerTampered
    /// The file was changed outside Tokens in a way the header's MAC and manifest reveal.
    case modified(VaultModification)
    /// Another tokens changed the passphrase (and so the keys) after this one unlocked.
    case changedSinceUnlock
    case entryDamaged(id: String)
    case newerFormat(found: Int, supported: Int)
    case unsupportedKDF(String)
    case busy
    case locked
    /// `tokens backup` found a file where the copy goes.
    case backupExists(path: String)
    /// The copy a backup wrote failed its check; it was removed and the vault is as it was.
    case backupUnverified(path: String, reason: String)
    /// A backup file failed its check.
    case backupDamaged(path: String, reason: String)
    /// A backup written under another key than the vault's (before a passphrase change, or of
    /// another vault): its own passphrase opens it.
    case backupOtherKey(path: String)

    public var description: String {
        switch self {
        case .notInitialized(let path): "no vault at \(path)"
        case .alreadyExists(let path): "a vault already exists at \(path); nothing was changed"
        case .wrongPassphrase: "wrong passphrase"
        case .emptyPassphrase: "the passphrase must not be empty"
        case .notAVault(let path): "\(path) is not a Tokens vault (not an SQLite file)"
        case .foreignDatabase(let path): "\(path) is not a Tokens vault (an SQLite database of another program)"
        case .occupied(let path): "\(path) exists and is not a Tokens vault; nothing was changed (move it away first)"
        case .damaged(let path, let reason): "the vault at \(path) is damaged (\(reason)); restore it from a backup"
        case .headerTampered:
            "the vault header failed its integrity check: it was modified outside Tokens; restore it from a backup"
        case .modified(let what): "the vault was modified outside Tokens (\(what)); restore it from a backup"
        case .changedSinceUnlock:
            "the vault's passphrase was changed by another tokens after this one unlocked it; nothing was written: unlock again"
        case .entryDamaged(let id):
            "vault entry \(id) failed its integrity check (damaged or tampered); restore the vault from a backup"
        case .newerFormat(let found, let supported):
            "the vault uses format version \(found), newer than this tokens supports (\(supported)); upgrade tokens"
        case .unsupportedKDF(let name): "the vault's key slot uses an unsupported key derivation (\(name))"
        case .busy: "the vault stayed busy (another tokens is writing); try again"
        case .locked: "the vault is locked"
        case .backupExists(let path): "\(path) exists; nothing was written"
        case .backupUnverified(let path, let reason):
            "the backup copy for \(path) failed its check (\(reason)) and was removed; the vault is unchanged"
        case .backupDamaged(let path, let reason): "the backup \(path) failed its check: \(reason)"
        case .backupOtherKey(let path):
            "the backup \(path) was written under another passphrase (before a change, or of another vault): give that passphrase"
        }
    }

    /// What a check found, as the reason of a backup that failed it (without the advice to
    /// restore from a backup the vault's own errors give).
    var checkFinding: String {
        switch self {
        case .damaged(_, let reason): reason
        case .notAVault, .foreignDatabase: "it is not a Tokens vault"
        case .headerTampered: "its header failed its integrity check"
        case .modified(let what): "\(what)"
        case .entryDamaged(let id): "entry \(id) failed its integrity check"
        default: description
        }
    }
}

/// What the integrity checks found changed in a vault file.
public enum VaultModification: Equatable, Sendable, CustomStringConvertible {
    /// An entry was added, removed, replaced by an older copy or otherwise changed.
    case entries
    /// A trigger, view, table or index that Tokens did not create.
    case foreignSchema(kind: String, name: String)
    /// One of Tokens's own tables or indexes has a different definition.
    case schemaChanged
    /// A write that SQLite reported as changing nothing (something in the file intercepts it).
    case writeIgnored

    public var description: String {
        switch self {
        case .entries: "an entry was added, removed, changed or replaced by an older copy"
        case .foreignSchema(let kind, let name): "it has a \(kind) named “\(name)” that Tokens did not create"
        case .schemaChanged: "the definition of its tables was changed"
        case .writeIgnored: "a write was silently ignored; nothing was written"
        }
    }
}
