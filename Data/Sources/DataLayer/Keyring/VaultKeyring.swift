/// Port (Data's own): where `tokens unlock` keeps a vault's key between commands, for a while,
/// outside any file. The kernel keyring (`KernelKeyring`) in the app; a fake in tests.
public protocol VaultKeyring: Sendable {
    /// Keeps `payload` under `name` for `seconds` (at least 1), replacing what was kept there.
    func store(_ payload: [UInt8], named name: String, seconds: Int) throws(VaultKeyringError)
    /// What is kept under `name`: nil when nothing is (never kept, expired or removed).
    func payload(named name: String) throws(VaultKeyringError) -> [UInt8]?
    /// Removes what is kept under `name` at once; false when nothing was.
    @discardableResult
    func remove(named name: String) throws(VaultKeyringError) -> Bool
}

/// Why the keyring could not be used. Neither case holds a secret.
public enum VaultKeyringError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The keyring cannot be used here at all (a container or sandbox blocks its system calls).
    case unavailable(reason: String)
    /// The keyring refused this one request (a quota, say).
    case refused(reason: String)

    public var description: String {
        switch self {
        case .unavailable(let reason): "the kernel keyring is unavailable here (\(reason))"
        case .refused(let reason): "the kernel keyring refused the key (\(reason))"
        }
    }
}
