import CKeyring
import Domain

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The Linux kernel keyring, through its system calls (`add_key`, `keyctl`): each payload is a
/// "user" key in the calling user's keyring, with a timeout the kernel enforces. The key lives
/// in kernel memory only, never on disk; processes of the same user can read it (as they can
/// ask ssh-agent), nobody else can.
public struct KernelKeyring: VaultKeyring {
    /// Possessor: everything. The same user: view, read, write, search, set the timeout; so a
    /// shell whose session keyring does not link the user keyring still finds it. Others: none.
    static let permissions: UInt32 = 0x3f2f_0000

    public init() {}

    public func store(_ payload: [UInt8], named name: String, seconds: Int) throws(VaultKeyringError) {
        let key = payload.withUnsafeBytes { tokens_add_user_key(name, $0.baseAddress, $0.count, TOKENS_USER_KEYRING) }
        guard key >= 0 else { throw Self.error(errno) }
        let timeout = UInt32(clamping: max(1, seconds))
        guard tokens_set_key_permissions(key, Self.permissions) == 0, tokens_set_key_timeout(key, timeout) == 0 else {
            let failure = errno
            _ = tokens_remove_key(key)
            throw Self.error(failure)
        }
    }

    public func payload(named name: String) throws(VaultKeyringError) -> [UInt8]? {
        guard let key = try find(name) else { return nil }
        var buffer = [UInt8](repeating: 0, count: 256)
        let length = buffer.withUnsafeMutableBytes { tokens_read_key(key, $0.baseAddress, $0.count) }
        defer { buffer.wipe() }
        guard length >= 0 else {
            if Self.isGone(errno) { return nil }
            throw Self.error(errno)
        }
        // Longer than any payload Tokens keeps: not one of ours.
        guard length <= buffer.count else { return nil }
        return Array(buffer[..<length])
    }

    @discardableResult
    public func remove(named name: String) throws(VaultKeyringError) -> Bool {
        guard let key = try find(name) else { return false }
        guard tokens_remove_key(key) == 0 else {
            if Self.isGone(errno) { return false }
            throw Self.error(errno)
        }
        return true
    }

    private func find(_ name: String) throws(VaultKeyringError) -> Int32? {
        let key = tokens_search_user_key(TOKENS_USER_KEYRING, name)
        guard key >= 0 else {
            if Self.isGone(errno) { return nil }
            throw Self.error(errno)
        }
        return key
    }

    /// Nothing under that name, or what was there expired or was removed.
    private static func isGone(_ code: Int32) -> Bool {
        #if os(Linux)
            code == ENOKEY || code == EKEYEXPIRED || code == EKEYREVOKED
        #else
            false
        #endif
    }

    private static func error(_ code: Int32) -> VaultKeyringError {
        let reason = String(cString: strerror(code)).lowercased()
        // Blocked system calls (seccomp answers EPERM or ENOSYS), or not built into the kernel.
        return [ENOSYS, EPERM, EACCES].contains(code) ? .unavailable(reason: reason) : .refused(reason: reason)
    }
}
