import AppComposition
import ArgumentParser
import Domain
import Presentation
import TerminalUI

/// `tokens qr QUERY`: draw an account's Key URI as a QR code, to add it to a phone.
struct QR: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "qr",
        abstract: "Draw the QR code of the one account matching QUERY (it contains the secret).")

    @OptionGroup var global: GlobalOptions

    @Argument(help: GlobalOptions.queryHelp)
    var query: String

    func run() async throws {
        let (label, uri) = try await global.withContainer { container in
            let account = try await AccountSelection.find(query, in: container)
            return (account.displayName, KeyURI.format(try account.spec))
        }
        StandardStreams.writeLine(label)
        StandardStreams.writeLine(try QRText.render(uri))
    }
}

/// A text as a QR code drawn for the terminal.
enum QRText {
    static func render(_ text: String) throws -> String {
        let code = try AppComposer.makeQRCodeEncoder().encode(text)
        return QRCodeView.render(QRMatrix(code)).joined(separator: "\n")
    }
}
