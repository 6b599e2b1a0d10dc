import Domain
import Foundation
import Presentation

/// The non-interactive listing of accounts: an aligned table (issuer, account, code, time left
/// or counter, short id), or JSON for scripts.
enum AccountListing {
    /// One account in `list --json`. Never includes the secret.
    struct Entry: Encodable {
        let id: String
        let issuer: String
        let account: String
        let type: String
        let algorithm: String
        let digits: Int
        let period: Int?
        let counter: UInt64?
        let code: String?
        let nextCode: String?
        let secondsRemaining: Int?
        let favorite: Bool
        let groups: [String]
        /// The note (not a secret).
        let note: String
    }

    static func json(_ accounts: [Account], _ codes: [GeneratedCode]) throws -> String {
        let entries = zip(accounts, codes).map { account, code in
            Entry(
                id: account.id.uuidString, issuer: account.issuer, account: account.name, type: account.kind.typeName,
                algorithm: account.algorithm.rawValue, digits: account.digits, period: account.kind.period,
                counter: account.counter, code: code.code, nextCode: code.nextCode,
                secondsRemaining: code.secondsRemaining, favorite: account.isFavorite, groups: account.groups,
                note: account.note)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(entries), as: UTF8.self) + "\n"
    }

    static func table(_ accounts: [Account], _ codes: [GeneratedCode]) -> String {
        guard !accounts.isEmpty else { return "No accounts.\n" }
        let rows: [[String]] = zip(accounts, codes).map { account, code in
            let shown = code.code.map(CodeFormatter.grouped) ?? "(hotp)"
            let remaining = code.secondsRemaining.map { "\($0)s" } ?? "#\(account.counter ?? 0)"
            return [account.issuer, account.name, shown, remaining, account.shortID]
        }
        return TextTable.render(rows)
    }
}
