/// The state of anything a screen waits for: not asked yet, loading (keeping the last value to
/// show meanwhile), loaded, or failed with a message a person can act on.
public enum Loadable<Value: Sendable>: Sendable {
    case notRequested
    case isLoading(last: Value?)
    case loaded(Value)
    case failed(String)

    /// The value to show: the loaded one, or the last one while reloading.
    public var value: Value? {
        switch self {
        case .loaded(let value): value
        case .isLoading(let last): last
        case .notRequested, .failed: nil
        }
    }

    public var isLoading: Bool {
        if case .isLoading = self { true } else { false }
    }

    /// The failure message, if loading failed.
    public var failureMessage: String? {
        if case .failed(let message) = self { message } else { nil }
    }

    /// The same state with its value transformed.
    public func map<Other: Sendable>(_ transform: (Value) -> Other) -> Loadable<Other> {
        switch self {
        case .notRequested: .notRequested
        case .isLoading(let last): .isLoading(last: last.map(transform))
        case .loaded(let value): .loaded(transform(value))
        case .failed(let message): .failed(message)
        }
    }
}

extension Loadable: Equatable where Value: Equatable {}
