/// A stamp of the stored accounts that changes whenever they change, in this process or (for a
/// vault) in another one. Use cases keep derived data, such as the search index, while it stays equal.
public struct AccountsRevision: Hashable, Sendable {
    private let components: [UInt64]

    /// A revision made of counters that together change with every change.
    public init(_ components: UInt64...) {
        self.components = components
    }

    /// This revision seen through an outer counter (a lock epoch, say).
    public func within(_ outer: UInt64) -> AccountsRevision {
        AccountsRevision(components: [outer] + components)
    }

    private init(components: [UInt64]) {
        self.components = components
    }
}
