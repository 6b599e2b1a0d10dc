import DataLayer
import Foundation
import Synchronization

/// A keyring in memory, for tests: keeps payloads with their timeouts on a clock the test
/// moves (`advance(by:)`), and can be made unavailable, as a container that blocks the kernel
/// keyring's system calls would make it. `VaultKeyringContract` keeps it honest against
/// `KernelKeyring`.
public final class InMemoryKeyring: VaultKeyring {
    private struct State {
        var entries: [String: (payload: [UInt8], expires: Int)] = [:]
        var now = 0
        var unavailable: String?
    }

    private let state = Mutex(State())

    public init() {}

    /// Test hook: every call fails as the kernel's would where keyrings are blocked.
    public func makeUnavailable(reason: String = "operation not permitted") {
        state.withLock { $0.unavailable = reason }
    }

    /// Test hook: moves this keyring's clock, expiring what has timed out.
    public func advance(by seconds: Int) {
        state.withLock { $0.now += seconds }
    }

    /// Test hook: the names of the keys kept and not expired.
    public var names: Set<String> {
        state.withLock { state in Set(state.entries.filter { $0.value.expires > state.now }.keys) }
    }

    public func store(_ payload: [UInt8], named name: String, seconds: Int) throws(VaultKeyringError) {
        try state.withLock { (state: inout State) throws(VaultKeyringError) in
            if let reason = state.unavailable { throw .unavailable(reason: reason) }
            state.entries[name] = (payload, state.now + max(1, seconds))
        }
    }

    public func payload(named name: String) throws(VaultKeyringError) -> [UInt8]? {
        try state.withLock { (state: inout State) throws(VaultKeyringError) in
            if let reason = state.unavailable { throw .unavailable(reason: reason) }
            guard let entry = state.entries[name], entry.expires > state.now else { return nil }
            return entry.payload
        }
    }

    @discardableResult
    public func remove(named name: String) throws(VaultKeyringError) -> Bool {
        try state.withLock { (state: inout State) throws(VaultKeyringError) in
            if let reason = state.unavailable { throw .unavailable(reason: reason) }
            guard let entry = state.entries.removeValue(forKey: name) else { return false }
            return entry.expires > state.now
        }
    }
}
