import Domain
import Foundation
import Observation

/// The Add screen: paste an otpauth URI, or fill in the fields; validation messages come live
/// from Domain's errors, and saving goes through the AddAccount use case.
@MainActor
@Observable
public final class AddAccountViewModel {
    /// What the view model may ask the coordinator to do.
    public struct Actions {
        public let saved: @MainActor (Account) -> Void
        public let cancel: @MainActor () -> Void
        public init(saved: @escaping @MainActor (Account) -> Void, cancel: @escaping @MainActor () -> Void) {
            self.saved = saved
            self.cancel = cancel
        }
    }

    /// A form field, in the order the form shows them.
    public enum Field: Int, CaseIterable, Sendable {
        case uri, issuer, account, secret, kind, algorithm, digits, periodOrCounter
    }

    public private(set) var uri = ""
    public private(set) var draft = AccountDraft()
    public private(set) var focus: Field = .uri
    /// Output: why the form cannot be saved yet (nil when it can).
    public private(set) var validationMessage: String?
    /// Output: whether anything was typed or chosen yet (the form shows no error before).
    public private(set) var touched = false
    public private(set) var saveError: String?

    @ObservationIgnored private let addAccount: any AddAccountUseCase
    @ObservationIgnored private let actions: Actions

    public init(addAccount: any AddAccountUseCase, actions: Actions) {
        self.addAccount = addAccount
        self.actions = actions
        validate()
    }

    /// Whether the URI field is in use (anything typed there wins over the fields).
    public var usesURI: Bool { !uri.trimmingCharacters(in: .whitespaces).isEmpty }

    /// The text of a field, as the form shows it.
    public func text(of field: Field) -> String {
        switch field {
        case .uri: Self.maskingSecret(in: uri)
        case .issuer: draft.issuer
        case .account: draft.name
        case .secret: draft.secret
        case .kind: draft.kind.rawValue.uppercased()
        case .algorithm: draft.algorithm.rawValue
        case .digits: draft.kind == .steam ? "\(AccountSpec.steamDigits) (Steam)" : String(draft.digits)
        case .periodOrCounter: draft.kind == .hotp ? String(draft.counter) : String(draft.period)
        }
    }

    /// Input: move the focus to the next or previous field.
    public func moveFocus(by offset: Int) {
        let all = Field.allCases
        focus = all[((focus.rawValue + offset) % all.count + all.count) % all.count]
    }

    /// Input: typed characters in the focused field (choices cycle instead).
    public func type(_ text: String) {
        touched = true
        edit { current in current + text }
        validate()
    }

    /// Input: delete the last character of the focused field (a choice stays as it is).
    public func backspace() {
        guard focus != .kind, focus != .algorithm else { return }
        touched = true
        edit { current in String(current.dropLast()) }
        validate()
    }

    /// Input: the next choice for TYPE and ALGORITHM.
    public func cycleChoice() {
        switch focus {
        case .kind:
            let kinds = AccountDraft.Kind.allCases
            draft.kind = kinds[(kinds.firstIndex(of: draft.kind)! + 1) % kinds.count]
        case .algorithm:
            let algorithms = OTPAlgorithm.allCases
            draft.algorithm = algorithms[(algorithms.firstIndex(of: draft.algorithm)! + 1) % algorithms.count]
        default:
            return
        }
        touched = true
        validate()
    }

    /// Input: save the account; on success the coordinator goes back to the list.
    public func save() async {
        touched = true
        validate()
        guard validationMessage == nil else { return }
        do {
            let account = usesURI ? try await addAccount.execute(uri: uri) : try await addAccount.execute(draft: draft)
            actions.saved(account)
        } catch {
            saveError = "\(error)"
        }
    }

    public func cancel() {
        actions.cancel()
    }

    private func edit(_ change: (String) -> String) {
        switch focus {
        case .uri: uri = change(uri)
        case .issuer: draft.issuer = change(draft.issuer)
        case .account: draft.name = change(draft.name)
        case .secret: draft.secret = change(draft.secret)
        case .digits: draft.digits = Int(change(String(draft.digits)).filter(\.isNumber).prefix(3)) ?? 0
        case .periodOrCounter:
            let digits = change(text(of: .periodOrCounter)).filter(\.isNumber)
            if draft.kind == .hotp { draft.counter = UInt64(digits.prefix(19)) ?? 0 } else { draft.period = Int(digits.prefix(6)) ?? 0 }
        case .kind, .algorithm: cycleChoice()
        }
    }

    private func validate() {
        saveError = nil
        do {
            if usesURI { fill(from: try KeyURI.parse(uri)) } else { _ = try draft.validated() }
            validationMessage = nil
        } catch {
            validationMessage = "\(error)"
        }
    }

    /// The fields show what a valid URI holds (the secret masked like the one typed).
    private func fill(from spec: AccountSpec) {
        var filled = AccountDraft(
            issuer: spec.issuer, name: spec.name, secret: spec.secret.base32, algorithm: spec.algorithm, digits: spec.digits)
        switch spec.kind {
        case .totp(let period): filled.period = period
        case .hotp(let counter): (filled.kind, filled.counter) = (.hotp, counter)
        case .steam: filled.kind = .steam
        }
        draft = filled
    }

    /// The URI as the form shows it: the value of its secret parameter as dots.
    static func maskingSecret(in uri: String) -> String {
        guard let range = uri.range(of: #"(?i)[?&]secret=[^&#]*"#, options: .regularExpression),
            let equals = uri[range].firstIndex(of: "=")
        else { return uri }
        let value = uri.index(after: equals)..<range.upperBound
        return uri.replacingCharacters(in: value, with: String(repeating: "•", count: uri[value].count))
    }
}
