import AppComposition
import CommandLineKit
import Domain
import Presentation
import TerminalUI

/// `tokens qr QUERY`: draw an account's Key URI as a QR code, to add it to a phone.
struct QR: TokensCommand {
    static let spec = CommandSpec(
        "qr",
        abstract: "Draw the QR code of the one account matching QUERY (it contains the secret).",
        arguments: [GlobalOptions.query])

    let target: AccountTarget

    init(_ arguments: ParsedArguments) { target = AccountTarget(arguments) }

    func run() async throws {
        let (label, uri) = try await target.withAccount { _, account in (account.displayName, KeyURI.format(try account.spec)) }
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
