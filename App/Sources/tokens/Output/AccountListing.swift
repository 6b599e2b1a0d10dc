import CommandLineKit
import Domain
import Foundation
import Presentation
import TerminalUI

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
        return escapingControls(String(decoding: try encoder.encode(entries), as: UTF8.self)) + "\n"
    }

    /// JSON whose strings hold no raw DEL, C1 control or bidi override or isolate: each written as
    /// a \\u escape (JSONEncoder escapes only C0, and C0 outside strings is the layout's own
    /// newlines), so a terminal that shows the output cannot be driven by an account's text.
    static func escapingControls(_ json: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in json.unicodeScalars {
            if scalar.value >= 0x7F, AccountText.isForbidden(scalar) {
                out.append(contentsOf: String(format: "\\u%04x", scalar.value).unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    static func table(_ accounts: [Account], _ codes: [GeneratedCode]) -> String {
        guard !accounts.isEmpty else { return "No accounts.\n" }
        let rows: [[String]] = zip(accounts, codes).map { account, code in
            let shown = code.code.map(CodeFormatter.grouped) ?? "(hotp)"
            let remaining = code.secondsRemaining.map { "\($0)s" } ?? "#\(account.counter ?? 0)"
            return [account.issuer, account.name, shown, remaining, account.shortID]
        }
        return TextTable.render(rows, escape: TerminalText.escaped)
    }
}
