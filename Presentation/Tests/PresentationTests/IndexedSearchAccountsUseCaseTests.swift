import Domain
import Foundation
import Presentation
import PresentationTestSupport
import Synchronization
import Testing

@Suite("Indexed search")
struct IndexedSearchAccountsUseCaseTests {
    let store = RevisionedAccounts()

    func makeSearch() -> IndexedSearchAccountsUseCase {
        IndexedSearchAccountsUseCase(listAccounts: store, revision: { [store] in store.revision })
    }

    @Test("matches issuer, account and note, ignoring case and accents, like Domain's search")
    func matches() async throws {
        store.send([
            .row(1, issuer: "Crédit Agricole", name: "me"), .row(2, issuer: "GitHub", name: "octocat"),
            .row(3, issuer: "Work", name: "x", note: "VPN at Zürich office"),
        ])
        let search = makeSearch()
        let plain = DefaultSearchAccountsUseCase(listAccounts: store)
        for query in ["credit", "OCTO", "zurich vpn", "", "nothing", "o"] {
            #expect(try await search.execute(query: query) == plain.execute(query: query), "\(query)")
        }
        #expect(try await search.execute(query: "zurich vpn").map(\.issuer) == ["Work"])
    }

    @Test("lists the accounts once per revision, not once per keystroke")
    func oncePerRevision() async throws {
        store.send([.row(1, issuer: "GitHub"), .row(2, issuer: "GitLab")])
        let search = makeSearch()
        for query in ["g", "gi", "git", "gith", "githu", "github"] { _ = try await search.execute(query: query) }
        #expect(store.listCalls == 1)
        store.send(store.accounts + [.row(3, issuer: "Gitea")])
        #expect(try await search.execute(query: "git").map(\.issuer) == ["GitHub", "GitLab", "Gitea"])
        #expect(store.listCalls == 2)
    }

    @Test("a rebuilt index reuses unchanged text by id when accounts move, and folds changed ones again")
    func afterMoves() async throws {
        store.send([.row(1, issuer: "Alpha"), .row(2, issuer: "Bravo"), .row(3, issuer: "Charlie")])
        let search = makeSearch()
        #expect(try await search.execute(query: "a").map(\.issuer) == ["Alpha", "Bravo", "Charlie"])
        // Bravo leaves, so Charlie moves up a place; Charlie is renamed too.
        store.send([.row(1, issuer: "Alpha"), .row(3, issuer: "Delta")])
        #expect(try await search.execute(query: "a").map(\.issuer) == ["Alpha", "Delta"])
        #expect(try await search.execute(query: "charlie").isEmpty)
        #expect(try await search.execute(query: "bravo").isEmpty)
        #expect(try await search.execute(query: "alpha").map(\.issuer) == ["Alpha"])
    }

    @Test("text kept from a folded index through revisions only listed is reused only for unchanged accounts")
    func throughListedRevisions() async throws {
        store.send([.row(1, issuer: "Alpha"), .row(2, issuer: "Bravo")])
        let search = makeSearch()
        #expect(try await search.execute(query: "bravo").map(\.issuer) == ["Bravo"])
        // Listed, never searched: its text is not folded; the next fold reuses Alpha's and
        // Bravo's unless they changed.
        store.send([.row(2, issuer: "Charlie"), .row(1, issuer: "Alpha")])
        #expect(try await search.execute(query: "").map(\.issuer) == ["Charlie", "Alpha"])
        store.send([.row(2, issuer: "Charlie"), .row(1, issuer: "Alpha"), .row(3, issuer: "Delta")])
        #expect(try await search.execute(query: "").count == 3)
        #expect(try await search.execute(query: "bravo").isEmpty)
        #expect(try await search.execute(query: "charlie").map(\.issuer) == ["Charlie"])
        #expect(try await search.execute(query: "a").map(\.issuer) == ["Charlie", "Alpha", "Delta"])
        #expect(store.listCalls == 3)
    }
}

/// Accounts with a revision that moves with every `send`, counting the lists made.
final class RevisionedAccounts: ListAccountsUseCase {
    private struct State {
        var accounts: [Account] = []
        var changes: UInt64 = 0
        var listCalls = 0
    }

    private let state = Mutex(State())

    var accounts: [Account] { state.withLock { $0.accounts } }
    var revision: AccountsRevision { state.withLock { AccountsRevision($0.changes) } }
    var listCalls: Int { state.withLock { $0.listCalls } }

    func send(_ accounts: [Account]) {
        state.withLock { state in
            state.accounts = accounts
            state.changes += 1
        }
    }

    func execute() async throws -> [Account] {
        state.withLock { state in
            state.listCalls += 1
            return state.accounts
        }
    }
}
