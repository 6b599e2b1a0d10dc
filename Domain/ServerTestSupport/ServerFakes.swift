import Foundation
import SyncServer
import Synchronization

/// A server clock that stands still until a test moves it.
public final class SettableServerClock: ServerClock {
    private let time: Mutex<Date>
    public init(unix: TimeInterval) { time = Mutex(Date(timeIntervalSince1970: unix)) }
    public func now() -> Date { time.withLock { $0 } }
    public func advance(seconds: TimeInterval) { time.withLock { $0.addTimeInterval(seconds) } }
}

/// Randomness that counts: the n-th secret is 32 bytes of n, the n-th UUID ends in n, so a
/// test can predict every id and token.
public final class CountingServerRandom: ServerRandomSource {
    private let counter = Mutex<UInt8>(0)
    public init() {}

    private func next() -> UInt8 {
        counter.withLock {
            $0 &+= 1
            return $0
        }
    }

    public func secret() -> SyncSecret { SyncSecret(bytes: Array(repeating: next(), count: SyncSecret.byteCount))! }

    public func uuid() -> UUID {
        let n = next()
        return UUID(uuid: (0, 0, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, n))
    }
}

/// Builders for tests.
public enum ServerSamples {
    /// A secret of 32 copies of `byte`.
    public static func secret(_ byte: UInt8) -> SyncSecret { SyncSecret(bytes: Array(repeating: byte, count: 32))! }

    /// An id whose last byte is `n`.
    public static func uuid(_ n: UInt8, high: UInt8 = 0) -> UUID {
        UUID(uuid: (high, 0, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, n))
    }

    /// A payload whose ciphertext is `text` (tests stand in for the client's encryption).
    public static func payload(_ text: String, deleted: Bool = false, nonce: UInt8 = 1) -> EntryPayload {
        EntryPayload(
            isDeleted: deleted, keyVersion: 1, nonce: Array(repeating: nonce, count: 12), ciphertext: Array(text.utf8))
    }

    public static func change(_ entry: UInt8, basedOn: Int64 = 0, _ text: String, deleted: Bool = false, nonce: UInt8 = 1)
        -> EntryChange
    {
        EntryChange(id: EntryID(uuid(entry)), basedOn: basedOn, payload: payload(text, deleted: deleted, nonce: nonce))
    }
}

/// A notifier for tests that never really waits: a wait moves the test's clock on by the time
/// asked for, then runs `onWait` with how many waits there have been (so a test can make a
/// change arrive during a long-poll). It records the accounts it was told about and each wait.
public final class SteppingChangeNotifier: ChangeNotifier {
    private let clock: SettableServerClock
    private let onWait: @Sendable (Int) async -> Void
    private let record = Mutex<(changed: [SyncAccountID], waits: [Double])>(([], []))

    public init(clock: SettableServerClock, onWait: @escaping @Sendable (Int) async -> Void = { _ in }) {
        self.clock = clock
        self.onWait = onWait
    }

    /// The accounts `changed` was called for, in order.
    public var changed: [SyncAccountID] { record.withLock { $0.changed } }
    /// The `atMost` of each wait, in order.
    public var waits: [Double] { record.withLock { $0.waits } }

    public func changed(_ account: SyncAccountID) async { record.withLock { $0.changed.append(account) } }

    public func wait(for account: SyncAccountID, atMost seconds: Double) async {
        let count = record.withLock {
            $0.waits.append(seconds)
            return $0.waits.count
        }
        clock.advance(seconds: seconds)
        await onWait(count)
    }
}
