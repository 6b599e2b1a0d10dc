import DataLayer

/// The failures scripts may want to tell apart by exit status, so the executable need not
/// know Data's error types.
package enum FailureKind: Sendable, Equatable {
    /// The passphrase does not open the vault.
    case wrongPassphrase
    /// The vault file is not a vault, fails its integrity checks or cannot be read.
    case damagedVault
    /// A backup failed its check (a new copy is then removed).
    case backupFailed
    /// Anything else.
    case other

    public init(of error: any Error) {
        guard let vault = error as? VaultError else {
            self = .other
            return
        }
        // Every case named, no default: a new vault error must be given its status here.
        switch vault {
        case .wrongPassphrase, .backupOtherKey: self = .wrongPassphrase
        case .notAVault, .foreignDatabase, .damaged, .headerTampered, .modified, .entryDamaged: self = .damagedVault
        case .backupUnverified, .backupDamaged: self = .backupFailed
        case .notInitialized, .alreadyExists, .occupied, .emptyPassphrase, .changedSinceUnlock, .newerFormat, .unsupportedKDF, .busy,
            .locked, .backupExists:
            self = .other
        }
    }
}
