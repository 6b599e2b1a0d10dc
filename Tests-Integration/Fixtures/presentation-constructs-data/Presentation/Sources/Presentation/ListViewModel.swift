// Fixture: a view model building Data's store itself breaks rule 7.
// A mention in a comment, InMemoryAccountStore(), does not count.
final class ListViewModel {
    let store = InMemoryAccountStore()
    let inferred: InMemoryAccountStore = .init()
}
