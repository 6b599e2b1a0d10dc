import AppComposition
import CommandLineKit
import Domain
import Foundation
import TerminalUI

/// `tokens add URI…`: add accounts from otpauth:// Key URIs, given, or read from QR codes in
/// pictures, on the screen or on the clipboard.
struct Add: TokensCommand {
    static let spec = CommandSpec(
        "add",
        abstract: "Add accounts from otpauth:// URIs, or from the QR codes in a picture.",
        discussion: """
            All URIs are checked before anything is added. Each account is then saved in its own \
            transaction, and "Added …" is printed once it is safely stored. An account that is \
            already there (same secret and parameters) is skipped and named.
            """,
        arguments: [
            .positional(
                "otpauth-uri", required: false, repeating: true,
                help:
                    "The accounts' Key URIs (quote them in the shell); - reads them from standard input, one a line (keeps secrets out of argv and shell history)."
            ),
            .flag("allow-duplicate", help: "Add an account even when one with the same secret and parameters is already there."),
            .option(
                "qr", value: "picture",
                help:
                    "Also add the Key URIs in the QR codes of this picture (PNG or JPEG, several codes in one are read; - reads it from standard input). Repeatable."
            ),
            .flag(
                "screen",
                help:
                    "Also add the Key URIs in the QR codes of a region of the screen you pick (slurp and grim on Wayland, ImageMagick's import on X11)."
            ),
            .flag(
                "clipboard",
                help:
                    "Also add the Key URIs on the desktop's clipboard, its text or the QR codes of its picture (wl-paste on Wayland, xclip or xsel on X11); it is never printed."
            ),
        ])

    let global: GlobalOptionValues
    let uris: [String]
    let allowDuplicate: Bool
    let clipboard: Bool
    let pictures: [String]
    let screen: Bool

    init(_ arguments: ParsedArguments) throws {
        global = GlobalOptionValues(arguments)
        uris = arguments.strings("otpauth-uri")
        allowDuplicate = arguments.flag("allow-duplicate")
        clipboard = arguments.flag("clipboard")
        pictures = arguments.strings("qr")
        screen = arguments.flag("screen")
        if uris.isEmpty, !clipboard, pictures.isEmpty, !screen {
            throw UsageError("give at least one otpauth:// URI, --qr PICTURE, --screen or --clipboard")
        }
        if uris.contains("-"), pictures.contains("-") {
            throw UsageError("standard input holds either URIs (-) or a picture (--qr -), not both")
        }
    }

    func run() async throws {
        // Validate everything first: bad input adds nothing.
        let reader = AppComposer.makeQRCodeReader()
        let uris =
            try StandardInputURIs.expanding(self.uris)
            + PictureURIs.uris(in: pictures, reader: reader)
            + (screen ? PictureURIs.uris(inPicture: DesktopScreenshot.picture(), named: "the region of the screen", reader: reader) : [])
            + (clipboard ? DesktopClipboard.uris(reader: reader) : [])
        let specs = try uris.enumerated().map { index, uri in
            do { return try KeyURI.parse(uri) } catch {
                throw CLIError(uris.count > 1 ? "URI \(index + 1): \(error)" : "\(error)")
            }
        }
        try await global.withContainer { container in
            let add = container.makeAddAccountUseCase()
            for spec in specs {
                do {
                    let account = try await add.execute(spec, note: "", groups: [], allowDuplicate: allowDuplicate)
                    CLILog.logger.debug("added account \(account.id) (\(account.kind.typeName))")
                    StandardStreams.writeLine("Added \(TerminalText.escaped(account.displayName))")
                } catch let duplicate as DuplicateAccountError {
                    // Already there: nothing to do, and not a failure (adding is idempotent).
                    StandardStreams.writeLine(
                        "Skipped \(TerminalText.escaped(Account.displayName(issuer: spec.issuer, name: spec.name))): \(TerminalText.escaped(duplicate.description)) (--allow-duplicate adds it anyway)"
                    )
                }
                fflush(nil)
            }
            if container.phase == .dev {
                CommandRunner.printError("note: the DEV phase keeps accounts in memory; they are gone when tokens exits")
            }
        }
    }
}
