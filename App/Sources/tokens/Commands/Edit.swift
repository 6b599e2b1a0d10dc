import CommandLineKit
import Domain
import Foundation
import TerminalUI

/// `tokens edit QUERY`: change an account's issuer, name, note, favourite or groups.
struct Edit: TokensCommand {
    static let spec = CommandSpec(
        "edit", abstract: "Edit the one account matching QUERY.",
        arguments: [
            GlobalOptions.query,
            .option("issuer", help: "New issuer."),
            .option("account", help: "New account name."),
            .option("note", help: "New note."),
            .option("groups", value: "a,b", help: "Groups, comma-separated (empty for none)."),
            .invertibleFlag("favorite", help: "Mark or unmark as a favourite."),
        ])

    let target: AccountTarget
    let issuer: String?
    let account: String?
    let note: String?
    let groups: String?
    let favorite: Bool?

    init(_ arguments: ParsedArguments) throws {
        target = AccountTarget(arguments)
        issuer = arguments.string("issuer")
        account = arguments.string("account")
        note = arguments.string("note")
        groups = arguments.string("groups")
        favorite = arguments.invertibleFlag("favorite")
        if issuer == nil, account == nil, note == nil, groups == nil, favorite == nil {
            throw UsageError("nothing to change: give --issuer, --account, --note, --groups or --[no-]favorite")
        }
    }

    func run() async throws {
        let updated = try await target.withAccount { container, selected in
            var edited = selected
            if let issuer { edited.issuer = issuer }
            if let account { edited.name = account }
            if let note { edited.note = note }
            if let favorite { edited.isFavorite = favorite }
            if let groups {
                edited.groups = AccountText.groups(fromList: groups)
                    .filter { !$0.isEmpty }
            }
            return try await container.makeUpdateAccountUseCase().execute(edited)
        }
        StandardStreams.writeLine("Updated \(TerminalText.escaped(updated.displayName))")
    }
}
