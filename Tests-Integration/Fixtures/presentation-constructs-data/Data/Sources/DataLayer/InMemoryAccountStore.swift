// Fixture: a concrete Data type.
public actor InMemoryAccountStore {
    public init() {}
}
