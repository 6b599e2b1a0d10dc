/// The exit statuses `tokens` documents (README, Exit status).
enum ExitStatus: Int32 {
    case success = 0
    /// Bad input, a failed operation, or a phase that is not available.
    case failure = 1
    /// No account matches the query.
    case noMatch = 2
    /// Several accounts match the query.
    case ambiguous = 3
    /// The command line itself is wrong (ArgumentParser's usage errors, EX_USAGE).
    case usage = 64
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
