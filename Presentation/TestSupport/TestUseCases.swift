import Domain
import Foundation
import Synchronization

/// A fake SearchAccounts: filters the accounts a test sends with Domain's own AccountQuery and
/// records every query, so tests can count searches. `failNext` makes the next call throw.
public final class TestSearchAccountsUseCase: SearchAccountsUseCase {
    private struct State {
        var accounts: [Account]
        var queries: [String] = []
        var nextError: (any Error)?
    }

    private let state: Mutex<State>

    public init(_ accounts: [Account] = []) {
        self.state = Mutex(State(accounts: accounts))
    }

    /// The queries searched so far, in order.
    public var queries: [String] { state.withLock { $0.queries } }

    public func send(_ accounts: [Account]) { state.withLock { $0.accounts = accounts } }

    /// Every account it holds.
    public var all: [Account] { state.withLock { $0.accounts } }

    public func failNext(with error: any Error) { state.withLock { $0.nextError = error } }

    public func execute(query: String) async throws -> [Account] {
        try state.withLock { state in
            state.queries.append(query)
            if let error = state.nextError {
                state.nextError = nil
                throw error
            }
            return state.accounts.filter(AccountQuery(query).matches)
        }
    }
}

/// A fake CurrentCode for counter-based accounts: hands out the account's counter then moves it
/// on, like the real one; `failNext` makes the next call throw.
public final class TestCurrentCodeUseCase: CurrentCodeUseCase {
    private let counters: Mutex<[UUID: UInt64]>
    private let failure = Mutex<(any Error)?>(nil)

    public init(counters: [UUID: UInt64] = [:]) {
        self.counters = Mutex(counters)
    }

    /// The next call throws `error`.
    public func failNext(with error: any Error) {
        failure.withLock { $0 = error }
    }

    public func execute(for account: Account, at date: Date) async throws -> GeneratedCode {
        let id = account.id
        if let error = failure.withLock({ failure in
            defer { failure = nil }
            return failure
        }) {
            throw error
        }
        let counter = try counters.withLock { counters -> UInt64 in
            guard let counter = counters[id] else { throw RepositoryError.notFound(id) }
            counters[id] = counter + 1
            return counter
        }
        return GeneratedCode(
            accountID: id, code: String(format: "%06llu", counter), secondsRemaining: nil, period: nil,
            nextCode: nil, counter: counter)
    }
}
