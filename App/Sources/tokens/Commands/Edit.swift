import Foundation
import ArgumentParser
import Domain
import TerminalUI

/// `tokens edit QUERY`: change an account's issuer, name, note, favourite or groups.
struct Edit: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "edit", abstract: "Edit the one account matching QUERY.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: GlobalOptions.queryHelp)
    var query: String

    @Option(help: "New issuer.") var issuer: String?
    @Option(help: "New account name.") var account: String?
    @Option(help: "New note.") var note: String?
    @Option(help: ArgumentHelp("Groups, comma-separated (empty for none).", valueName: "a,b")) var groups: String?
    @Flag(inversion: .prefixedNo, help: "Mark or unmark as a favourite.") var favorite: Bool?

    func validate() throws {
        if issuer == nil, account == nil, note == nil, groups == nil, favorite == nil {
            throw ValidationError("nothing to change: give --issuer, --account, --note, --groups or --[no-]favorite")
        }
    }

    func run() async throws {
        let updated = try await global.withContainer { container in
            var edited = try await AccountSelection.find(query, in: container)
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
