import Synchronization

/// The connections open now, in all and by address: a new one is let in or refused against
/// ConnectionLimits. Refusals are counted so the log says how many a cap turned away, at most
/// one line per interval.
public final class ConnectionCounter: Sendable {
    /// Why a connection was refused.
    public enum Refusal: Equatable, Sendable {
        case tooManyInAll(limit: Int)
        case tooManyFromAddress(limit: Int)
    }

    private struct State {
        var total = 0
        var byAddress: [String: Int] = [:]
        var refusedSinceReport = 0
        var lastReport: ContinuousClock.Instant?
    }

    private let limits: ConnectionLimits
    private let state = Mutex(State())

    public init(limits: ConnectionLimits) { self.limits = limits }

    /// Counts a new connection from `address`, or says why it is refused (then it is not counted).
    public func open(from address: String?) -> Refusal? {
        state.withLock { state in
            if state.total >= limits.maxConnections {
                state.refusedSinceReport += 1
                return .tooManyInAll(limit: limits.maxConnections)
            }
            if let address, !limits.unlimitedAddresses.contains(address) {
                let count = state.byAddress[address, default: 0]
                if count >= limits.maxPerAddress {
                    state.refusedSinceReport += 1
                    return .tooManyFromAddress(limit: limits.maxPerAddress)
                }
                state.byAddress[address] = count + 1
            }
            state.total += 1
            return nil
        }
    }

    /// A connection `open` let in has closed.
    public func close(from address: String?) {
        state.withLock { state in
            state.total -= 1
            guard let address, !limits.unlimitedAddresses.contains(address), let count = state.byAddress[address] else { return }
            state.byAddress[address] = count > 1 ? count - 1 : nil
        }
    }

    /// Connections open now.
    public var openCount: Int { state.withLock { $0.total } }

    /// How many connections were refused since the last report, when the last report is at least
    /// `interval` before `now` (or there was none); nil while it is too early to report again.
    public func refusalsToReport(now: ContinuousClock.Instant, interval: Duration) -> Int? {
        state.withLock { state in
            guard state.refusedSinceReport > 0 else { return nil }
            if let last = state.lastReport, now - last < interval { return nil }
            state.lastReport = now
            defer { state.refusedSinceReport = 0 }
            return state.refusedSinceReport
        }
    }
}
