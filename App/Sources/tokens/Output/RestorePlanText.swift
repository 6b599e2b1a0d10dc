import Domain
import Foundation
import TerminalUI

/// What a restore would change, as shown before it asks: a line a change, names escaped.
enum RestorePlanText {
    /// The most accounts listed under one heading; the rest are counted.
    static let shownPerHeading = 20

    static func render(_ plan: RestorePlan, file: String, accounts: Int) -> String {
        var text = "\(TerminalText.escaped(file)): \(Backup.Now.count(accounts)), checked\n"
        section("Added back (gone from the vault)", plan.added, mark: "+", into: &text)
        section("Updated (the backup's edit is newer)", plan.updated, mark: "~", into: &text)
        section("Kept as here (edited here since the backup)", plan.keptNewer, mark: "=", into: &text)
        section("Not added (here under another id)", plan.duplicates, mark: "=", into: &text)
        text += "Unchanged: \(plan.unchanged); only in the vault, kept: \(plan.onlyHere)\n"
        return text
    }

    private static func section(_ heading: String, _ accounts: [Account], mark: String, into text: inout String) {
        guard !accounts.isEmpty else { return }
        text += "\(heading): \(accounts.count)\n"
        for account in accounts.prefix(shownPerHeading) {
            text += "  \(mark) \(TerminalText.escaped(account.displayName)) (id \(account.shortID))\n"
        }
        if accounts.count > shownPerHeading { text += "  … and \(accounts.count - shownPerHeading) more\n" }
    }
}
