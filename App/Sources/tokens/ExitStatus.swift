/// The exit statuses `tokens` documents (README, Exit status).
enum ExitStatus: Int32 {
    case success = 0
    /// Bad input, a failed operation, or a phase that is not available.
    case failure = 1
    /// No account matches the query.
    case noMatch = 2
    /// Several accounts match the query.
    case ambiguous = 3
    /// The passphrase does not open the vault.
    case wrongPassphrase = 4
    /// The vault is damaged, was modified outside Tokens, or is not a vault (restore it from a backup).
    case damagedVault = 5
    /// A sync could not complete (offline, refused, revoked…); local changes wait for the next.
    case syncFailed = 6
    /// A backup failed its check (a copy just written is removed).
    case backupFailed = 7
    /// The command line itself is wrong (a usage error, EX_USAGE).
    case usage = 64
}

extension ExitStatus {
    /// Every status with its meaning, for the man page and `--help` (README lists the same).
    static let documented: [(ExitStatus, String)] = [
        (.success, "success"),
        (.failure, "bad input (a Key URI, a file, a config value) or a failed operation"),
        (.noMatch, "no account matches the query"),
        (.ambiguous, "several accounts match the query"),
        (.wrongPassphrase, "wrong passphrase"),
        (.damagedVault, "the vault is damaged, was modified outside Tokens, or is no vault"),
        (.syncFailed, "sync could not complete (offline, refused or revoked)"),
        (.backupFailed, "a backup failed its check (a new copy is removed)"),
        (.usage, "the command line is wrong (unknown option, missing argument)"),
    ]
}

/// An error the command line reports with a chosen exit status.
struct CLIError: Error {
    let message: String
    let status: ExitStatus

    init(_ message: String, status: ExitStatus = .failure) {
        self.message = message
        self.status = status
    }
}
