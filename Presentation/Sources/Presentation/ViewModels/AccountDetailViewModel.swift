import Domain
import Foundation
import Observation

/// The Detail screen: an account's details, with its issuer, name, note, groups and favourite
/// editable; saving goes through UpdateAccount (validated by Domain).
@MainActor
@Observable
public final class AccountDetailViewModel {
    /// What the view model may ask the coordinator to do.
    public struct Actions {
        public let saved: @MainActor (Account) -> Void
        public let close: @MainActor () -> Void
        public init(saved: @escaping @MainActor (Account) -> Void, close: @escaping @MainActor () -> Void) {
            self.saved = saved
            self.close = close
        }
    }

    /// An editable field, in the order the screen shows them.
    public enum Field: Int, CaseIterable, Sendable {
        case issuer, account, note, groups, favorite
    }

    public private(set) var account: Loadable<Account> = .notRequested
    public private(set) var issuer = ""
    public private(set) var name = ""
    public private(set) var note = ""
    public private(set) var groups = ""
    public private(set) var isFavorite = false
    public private(set) var focus: Field = .issuer
    public private(set) var error: String?

    @ObservationIgnored private let id: UUID
    @ObservationIgnored private let listAccounts: any ListAccountsUseCase
    @ObservationIgnored private let update: any UpdateAccountUseCase
    @ObservationIgnored private let actions: Actions

    public init(id: UUID, listAccounts: any ListAccountsUseCase, update: any UpdateAccountUseCase, actions: Actions) {
        self.id = id
        self.listAccounts = listAccounts
        self.update = update
        self.actions = actions
    }

    /// Input: load the account.
    public func load() async {
        account = .isLoading(last: account.value)
        do {
            guard let found = try await listAccounts.execute().first(where: { $0.id == id }) else {
                throw RepositoryError.notFound(id)
            }
            account = .loaded(found)
            issuer = found.issuer
            name = found.name
            note = found.note
            groups = AccountText.groupList(found.groups)
            isFavorite = found.isFavorite
        } catch {
            account = .failed("\(error)")
        }
    }

    /// The text of a field as the screen shows it.
    public func text(of field: Field) -> String {
        switch field {
        case .issuer: issuer
        case .account: name
        case .note: note
        case .groups: groups
        case .favorite: isFavorite ? "yes" : "no"
        }
    }

    public func moveFocus(by offset: Int) {
        let all = Field.allCases
        focus = all[((focus.rawValue + offset) % all.count + all.count) % all.count]
    }

    /// Input: typed text in the focused field (Space toggles the favourite).
    public func type(_ text: String) {
        error = nil
        switch focus {
        case .issuer: issuer += text
        case .account: name += text
        case .note: note += text
        case .groups: groups += text
        case .favorite: isFavorite.toggle()
        }
    }

    public func backspace() {
        switch focus {
        case .issuer: issuer = String(issuer.dropLast())
        case .account: name = String(name.dropLast())
        case .note: note = String(note.dropLast())
        case .groups: groups = String(groups.dropLast())
        case .favorite: break
        }
    }

    /// Input: save; Domain's validation message shows when it is refused.
    public func save() async {
        guard var edited = account.value else { return }
        edited.issuer = issuer
        edited.name = name
        edited.note = note
        edited.isFavorite = isFavorite
        edited.groups = AccountText.groups(fromList: groups)
        do {
            actions.saved(try await update.execute(edited))
        } catch {
            self.error = "\(error)"
        }
    }

    /// Input: leave without saving.
    public func close() { actions.close() }
}
