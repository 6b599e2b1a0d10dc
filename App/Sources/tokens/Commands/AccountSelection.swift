import AppComposition
import Domain

/// The account a command-line query means (Domain's SelectAccount use case), its refusals told
/// as the command line tells them: a message naming the candidates, and an exit status.
enum AccountSelection {
    static func find(_ query: String, in container: any AppContainer) async throws -> Account {
        do {
            return try await container.makeSelectAccountUseCase().execute(query: query)
        } catch let error as AccountSelectionError {
            throw cliError(error)
        }
    }

    /// "2 accounts match 'github': GitHub (me) [3f2a91c0], GitHub (me) [77b1e2d4]; …"
    static func cliError(_ error: AccountSelectionError) -> CLIError {
        switch error {
        case .noMatch(let query):
            return CLIError("no account matches '\(query)'", status: .noMatch)
        case .ambiguous(let query, let matches):
            let names = matches.prefix(5).map { "\($0.displayName) [\($0.shortID)]" }.joined(separator: ", ")
            let more = matches.count > 5 ? ", …" : ""
            return CLIError(
                "\(matches.count) accounts match '\(query)': \(names)\(more); be more specific, or give the id in brackets",
                status: .ambiguous)
        }
    }
}
