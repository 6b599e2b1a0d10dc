import Domain
import Foundation
import Presentation
import Synchronization

/// A lock that opens with one passphrase and counts what happens to it.
public final class TestLock: AccountStoreLock {
    private struct State {
        var isLocked = true
        var locks = 0
    }

    private let state = Mutex(State())
    private let passphrase: [UInt8]
    public let requiresUnlock: Bool

    public init(passphrase: String = "right", requiresUnlock: Bool = true) {
        self.passphrase = Array(passphrase.utf8)
        self.requiresUnlock = requiresUnlock
    }

    public var isLocked: Bool { state.withLock { $0.isLocked } }
    public var lockCount: Int { state.withLock { $0.locks } }

    public func unlock(passphrase: [UInt8]) async throws {
        guard passphrase == self.passphrase else { throw TestLockError.wrongPassphrase }
        state.withLock { $0.isLocked = false }
    }

    public func lock() async {
        state.withLock {
            $0.isLocked = true
            $0.locks += 1
        }
    }
}

/// The test lock's error.
public enum TestLockError: Error, CustomStringConvertible {
    case wrongPassphrase
    public var description: String { "wrong passphrase" }
}

/// A Clipboard that remembers what it holds.
@MainActor
public final class TestClipboard: Clipboard {
    public private(set) var contents: String?
    public private(set) var history: [String?] = []
    public let caveat: String?

    public init(caveat: String? = nil) { self.caveat = caveat }

    public func copy(_ text: String) {
        contents = text
        history.append(text)
    }

    public func clear() {
        contents = nil
        history.append(nil)
    }
}

/// A fake AddAccount that keeps what it adds in a TestSearchAccountsUseCase's list.
public final class TestAddAccountUseCase: AddAccountUseCase {
    private let search: TestSearchAccountsUseCase
    private let added = Mutex<[Account]>([])

    public init(search: TestSearchAccountsUseCase) {
        self.search = search
    }

    public var accounts: [Account] { added.withLock { $0 } }

    public func execute(_ spec: AccountSpec, note: String, groups: [String], allowDuplicate: Bool) async throws -> Account {
        let account = Account(
            id: UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", 900 + accounts.count))!, spec: spec,
            note: note, groups: groups, createdAt: Date(timeIntervalSince1970: 0))
        added.withLock { $0.append(account) }
        search.send(search.all + [account])
        return account
    }

    public func restore(_ account: Account) async throws {
        search.send(search.all + [account])
    }
}

/// Screens made from fakes, for router tests.
@MainActor
public final class TestScreenFactory: ScreenFactory {
    public let accountStoreLock: any AccountStoreLock
    public let search: TestSearchAccountsUseCase
    public let add: TestAddAccountUseCase
    public let clock: TestClock
    /// Replaceable before the list is made (a clipboard with a caveat).
    public var clipboard = TestClipboard()
    /// Hands out the HOTP accounts' codes from their counters.
    public let currentCode: TestCurrentCodeUseCase

    public init(lock: any AccountStoreLock, accounts: [Account], clock: TestClock) {
        var counters: [UUID: UInt64] = [:]
        for account in accounts { if case .hotp(let counter) = account.kind { counters[account.id] = counter } }
        self.currentCode = TestCurrentCodeUseCase(counters: counters)
        self.accountStoreLock = lock
        self.search = TestSearchAccountsUseCase(accounts)
        self.add = TestAddAccountUseCase(search: search)
        self.clock = clock
    }

    public func makeUnlockViewModel(actions: UnlockViewModel.Actions) -> UnlockViewModel {
        UnlockViewModel(unlock: DefaultUnlockUseCase(lock: accountStoreLock), scheduler: clock, actions: actions)
    }

    public func makeAccountListViewModel(actions: AccountListViewModel.Actions) -> AccountListViewModel {
        AccountListViewModel(
            reading: .init(
                search: search, generateCodes: DefaultGenerateCodesUseCase(hmac: CounterEchoHMAC()),
                currentCode: currentCode),
            editing: .init(
                update: update, delete: TestDeleteAccountUseCase(search: search), add: add,
                move: TestMoveAccountUseCase(search: search)),
            clipboard: clipboard, wallClock: clock.wallClock, scheduler: clock,
            options: .init(nextCodeWindow: 5, clipboardTimeout: .seconds(30)), actions: actions)
    }

    public func makeAddAccountViewModel(actions: AddAccountViewModel.Actions) -> AddAccountViewModel {
        AddAccountViewModel(addAccount: add, actions: actions)
    }

    public func makeAccountDetailViewModel(id: UUID, actions: AccountDetailViewModel.Actions) -> AccountDetailViewModel {
        AccountDetailViewModel(id: id, listAccounts: SearchAsList(search: search), update: update, actions: actions)
    }

    /// Saves edits into the search fake's accounts.
    public var update: TestUpdateAccountUseCase { TestUpdateAccountUseCase(search: search) }
}

/// ListAccounts over the search fake.
public struct SearchAsList: ListAccountsUseCase {
    let search: TestSearchAccountsUseCase
    public init(search: TestSearchAccountsUseCase) { self.search = search }
    public func execute() async throws -> [Account] { try await search.execute(query: "") }
}

/// A fake UpdateAccount: validates with Domain's rules as the real one does (the spec, then the
/// note and groups), keeps the spec's trimmed issuer and name, and stores into the search fake.
/// UseCaseFakeContractTests holds it to DefaultUpdateAccountUseCase.
public struct TestUpdateAccountUseCase: UpdateAccountUseCase {
    let search: TestSearchAccountsUseCase
    public init(search: TestSearchAccountsUseCase) { self.search = search }
    public func execute(_ account: Account) async throws -> Account {
        let spec = try account.spec
        try AccountText.validate(note: account.note, groups: account.groups)
        var updated = account
        (updated.issuer, updated.name, updated.algorithm, updated.digits) = (spec.issuer, spec.name, spec.algorithm, spec.digits)
        guard search.all.contains(where: { $0.id == account.id }) else { throw RepositoryError.notFound(account.id) }
        search.send(search.all.map { $0.id == account.id ? updated : $0 })
        return updated
    }
}

/// A fake DeleteAccount: removes the account from the search fake; a missing one is an error.
public struct TestDeleteAccountUseCase: DeleteAccountUseCase {
    let search: TestSearchAccountsUseCase
    public init(search: TestSearchAccountsUseCase) { self.search = search }
    public func execute(id: UUID) async throws {
        guard search.all.contains(where: { $0.id == id }) else { throw RepositoryError.notFound(id) }
        search.send(search.all.filter { $0.id != id })
    }
}

/// A fake MoveAccount: swaps the account with its neighbour `offset` places away in the search
/// fake's order; nothing past either end or for an unknown account, as the real one.
public struct TestMoveAccountUseCase: MoveAccountUseCase {
    let search: TestSearchAccountsUseCase
    public init(search: TestSearchAccountsUseCase) { self.search = search }
    public func execute(id: UUID, offset: Int) async throws {
        var accounts = search.all
        guard let from = accounts.firstIndex(where: { $0.id == id }), accounts.indices.contains(from + offset) else { return }
        accounts.swapAt(from, from + offset)
        search.send(accounts)
    }
}
