import CommandLineKit
import Domain
import Foundation
import Presentation
import SyncComposition
import TerminalUI

#if canImport(Glibc)
    import Glibc
#endif

/// `tokens sync`: keep this vault in step with other machines through a Tokens sync server.
/// The server stores only ciphertext; the sync code is the only way in.
enum Sync {
    static let spec = CommandSpec(
        "sync",
        abstract: "Sync this vault with your other machines through a Tokens sync server.",
        discussion: """
            Everything is encrypted on this machine with a key the server never sees; whoever has \
            the sync code can join. Losing every machine and the sync code loses the data: there \
            is no reset. Set up with `tokens sync init --server URL` on one machine and `tokens \
            sync join` (the code on standard input) on the others.
            """,
        subcommands: [Now.spec, Init.spec, Join.spec, Code.spec, Status.spec, Devices.spec, Revoke.spec, Rekey.spec, Leave.spec],
        defaultSubcommand: Now.spec.name)

    static let commands: [any TokensCommand.Type] = [
        Now.self, Init.self, Join.self, Code.self, Status.self, Devices.self, Revoke.self, Rekey.self, Leave.self,
    ]

    static let caFile = ArgumentSpec.option(
        "ca-file", value: "file", help: "Trust only the CA certificates in this PEM file (sync.ca.file).")
    static let server = ArgumentSpec.option(
        "server", value: "url", help: "The sync server (https://HOST[:PORT]; ALPHA: \(SyncServerAddress.staging)).")
    static let name = ArgumentSpec.option("name", value: "name", help: "This machine's name in the device list (default: the host name).")

    /// `tokens sync now` (and plain `tokens sync`): pull, merge and push.
    struct Now: TokensCommand {
        static let spec = CommandSpec(
            "now", abstract: "Sync now: fetch other machines' changes and send this one's.",
            discussion: """
                With --dry-run, fetch and merge only: say what a sync would receive, send and merge \
                (an account a line, the fields named, secrets never shown), and change nothing here \
                or on the server.
                """,
            arguments: [Sync.caFile, .flag("dry-run", help: "Say what a sync would receive, send and merge; change nothing.")])
        let options: SyncContext.Options
        let dryRun: Bool
        init(_ arguments: ParsedArguments) {
            options = SyncContext.Options(arguments)
            dryRun = arguments.flag("dry-run")
        }

        func run() async throws {
            try await SyncContext.with(options) { context in
                let membership = try await context.membership()
                try await context.connect(to: membership) { connection in
                    if dryRun {
                        try await context.preview(over: connection, membership: membership)
                    } else {
                        try await context.syncNow(over: connection, membership: membership)
                    }
                }
            }
        }
    }

    /// What `init` and `join` share: the sync options, the server and this machine's name.
    struct EnrolmentOptions {
        let options: SyncContext.Options
        let server: String?
        let name: String?

        init(_ arguments: ParsedArguments) {
            options = SyncContext.Options(arguments)
            server = arguments.string("server")
            name = arguments.string("name")
        }

        /// What the machine enrols with: a new account (with the operator's invitation when the
        /// server asks for one), or the account of a sync code.
        enum Enrolment {
            case open(invitation: SyncInvitation?)
            case join(SyncCode)
        }

        /// Enrols this machine, says so, and syncs. `read` asks for the secret (the code or the
        /// invitation) only once the vault is open and the server's address known, so a missing
        /// vault or a bad address is said before anyone pastes a secret.
        func run(_ read: () throws -> Enrolment) async throws {
            let device = try SyncContext.deviceName(name)
            try await SyncContext.with(options) { context in
                let url = try SyncServerAddress.resolve(server, phase: context.container.phase)
                let enrolment = try read()
                let code: SyncCode
                switch enrolment {
                case .open: code = context.setup.newCode()
                case .join(let joining): code = joining
                }
                try await context.connect(url) { connection in
                    let remote = connection.makeAccountRemote(key: code.key, account: code.account)
                    let membership: SyncMembership
                    switch enrolment {
                    case .open(let invitation):
                        membership = try await context.setup.open(
                            code, server: url, caFile: context.caFile, deviceName: device, invitation: invitation, remote: remote)
                    case .join:
                        membership = try await context.setup.join(
                            code, server: url, caFile: context.caFile, deviceName: device, remote: remote)
                    }
                    let verb = if case .open = enrolment { "Opened a" } else { "Joined the" }
                    StandardStreams.writeLine("\(verb) sync account on \(TerminalText.escaped(url.absoluteString))")
                    try await context.syncNow(over: connection, membership: membership)
                }
            }
        }
    }

    /// `tokens sync init`: open a sync account and send every account.
    struct Init: TokensCommand {
        static let spec = CommandSpec(
            "init", abstract: "Open a sync account on the server and send every account to it.",
            arguments: [
                Sync.server, Sync.name, Sync.caFile,
                .flag(
                    "invite",
                    help:
                        "The server opens accounts only with an invitation from its operator: asked without echo on a terminal, else read from standard input."
                ),
            ])
        let enrolment: EnrolmentOptions
        let invite: Bool
        init(_ arguments: ParsedArguments) {
            enrolment = EnrolmentOptions(arguments)
            invite = arguments.flag("invite")
        }

        func run() async throws {
            try await enrolment.run {
                guard invite else { return .open(invitation: nil) }
                let text =
                    isatty(0) == 1
                    ? try Join.prompted("Invitation (tokens-server admin invite prints it): ", noun: "invitation")
                    : Join.readStandardInput()
                guard let invitation = SyncInvitation(text: text) else {
                    throw CLIError("invitation: not one (44 characters of base64, as tokens-server admin invite prints it)")
                }
                return .open(invitation: invitation)
            }
            StandardStreams.writeLine("On another machine: tokens sync join (and paste the code `tokens sync code` shows here)")
        }
    }

    /// `tokens sync join`: enrol this machine with a sync code typed or pasted at a hidden
    /// prompt, or read from standard input; never from the command line, where any local user
    /// reads it (/proc/PID/cmdline).
    struct Join: TokensCommand {
        static let spec = CommandSpec(
            "join", abstract: "Join a sync account with its sync code (asked without echo on a terminal, else read from standard input).",
            arguments: [
                .positional("code", required: false, help: "Only - (standard input): the code itself is refused on the command line."),
                Sync.server, Sync.name, Sync.caFile,
            ])
        let enrolment: EnrolmentOptions
        let code: String?
        init(_ arguments: ParsedArguments) {
            enrolment = EnrolmentOptions(arguments)
            code = arguments.string("code")
        }

        func run() async throws {
            if let code, code != "-" {
                throw UsageError(
                    "the sync code must not be on the command line, where other users can read it: run tokens sync join and paste it at the prompt, or give - and pipe it on standard input"
                )
            }
            try await enrolment.run {
                let text =
                    code == nil && isatty(0) == 1
                    ? try Self.prompted("Sync code (tokens sync code shows it on the other machine): ", noun: "sync code")
                    : Self.readStandardInput()
                do { return .join(try SyncCode(parsing: text)) } catch { throw CLIError("sync code: \(error)") }
            }
        }

        /// A secret typed or pasted at `prompt` without echo; Enter submits.
        static func prompted(_ prompt: String, noun: String) throws -> String {
            let secret = try PassphraseReader.fromTerminal(prompt: prompt, noun: noun, otherwise: nil)
            var bytes = secret.copyBytes()
            defer { bytes.wipe() }
            return String(decoding: bytes, as: UTF8.self)
        }

        /// At most 4 KiB of standard input (a code is about 100 characters).
        static func readStandardInput() -> String {
            var data = FileHandle.standardInput.readData(ofLength: 4096)
            defer { data.wipe() }
            return String(decoding: data, as: UTF8.self)
        }
    }
}
