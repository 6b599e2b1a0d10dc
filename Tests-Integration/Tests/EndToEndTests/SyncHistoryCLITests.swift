import Foundation
import IntegrationTestSupport
import Testing

/// `tokens history` and `tokens restore` between two machines (REAL vaults, a DEV server): the
/// server keeps each replaced version encrypted, a machine reads them decrypted, and a version
/// brought back on one machine reaches the other like any change.
@Suite("tokens history and tokens restore across machines")
struct SyncHistoryCLITests {
    static let xco = "otpauth://totp/Xco:x?secret=KNSWG4TFOQQGEIDQ&issuer=Xco"

    @discardableResult
    static func tokens(
        _ arguments: [String], _ home: URL, input: String? = nil, status: Int32 = 0, sourceLocation: SourceLocation = #_sourceLocation
    )
        throws -> ProcessResult
    {
        try SyncCLITests.tokens(arguments, home, input: input, status: status, sourceLocation: sourceLocation)
    }

    @Test(
        "an edit and a deletion undone from the other machine: history names the fields and the machine, never the secret; bad references are one line"
    )
    func historyAndRestore() throws {
        let server = try ServerProcess(["--phase", "dev"])
        let e = try TemporaryHome()
        let f = try TemporaryHome()
        let url = server.baseURL.absoluteString
        for home in [e.url, f.url] { try Self.tokens(["init"], home) }
        try Self.tokens(["add", Self.xco], e.url)
        try Self.tokens(["sync", "init", "--server", url, "--name", "E"], e.url)
        let code = try Self.tokens(["sync", "code"], e.url).stdout
        try Self.tokens(["sync", "join", "--server", url, "--name", "F"], f.url, input: code)
        for note in ["old", "new"] {
            try Self.tokens(["edit", "xco", "--note", note], e.url)
            try Self.tokens(["sync"], e.url)
        }
        try Self.tokens(["sync"], f.url)

        let history = try Self.tokens(["history", "xco"], f.url).stdout
        let lines = history.split(separator: "\n").map(String.init)
        let id = try #require(lines.first.flatMap { $0.split(separator: "[").last?.prefix(8) }.map(String.init), "\(history)")
        #expect(lines.first == "Xco (x) [\(id)]", "\(history)")
        #expect(lines.count == 4 && lines[1].hasPrefix("  \(id)@3 ") && lines[1].hasSuffix("  E  note  (now)"), "\(history)")
        #expect(lines[2].hasPrefix("  \(id)@2 ") && lines[2].hasSuffix("  E  note"), "\(history)")
        #expect(lines[3].hasPrefix("  \(id)@1 ") && lines[3].hasSuffix("  E  added"), "\(history)")
        #expect(!history.contains("KNSWG4TFOQQGEIDQ"), "the secret is never shown")

        // F brings version 2 back ("old"); E receives it as any change.
        #expect(try Self.tokens(["restore", "\(id)@2"], f.url).stdout.contains("Restored Xco (x) [\(id)] as it was in version 2"))
        try Self.tokens(["sync"], e.url)
        #expect(try SyncCLITests.accounts(e.url).joined().contains("\"note\" : \"old\""))

        // E deletes it; F, after a sync, still finds it in the history and brings it back.
        try Self.tokens(["rm", "xco", "--yes"], e.url)
        try Self.tokens(["sync"], e.url)
        try Self.tokens(["sync"], f.url)
        #expect(try !SyncCLITests.accounts(f.url).joined().contains("Xco"))
        let deleted = try Self.tokens(["history"], f.url).stdout.split(separator: "\n").map(String.init)
        #expect(deleted.first == "Xco (x) [\(id)] (deleted)" && deleted[1].hasSuffix("  E  deleted  (now)"), "\(deleted)")
        let before = try #require(deleted[2].split(separator: " ").first.map(String.init))
        try Self.tokens(["restore", "\(id)@5"], f.url, status: 1)
        try Self.tokens(["restore", before], f.url)
        try Self.tokens(["sync"], e.url)
        let onE = try SyncCLITests.accounts(e.url).joined()
        #expect(onE.contains("Xco") && onE.contains("\"note\" : \"old\""), "\(onE)")

        // Mistakes are one line each, with the documented statuses.
        #expect(try Self.tokens(["restore", "xco"], f.url, status: 64).stderr.contains("ID@VERSION"))
        #expect(try Self.tokens(["restore", "\(id)@99"], f.url, status: 1).stderr.contains("version 99 of \(id) is not kept"))
        try Self.tokens(["restore", "ffffffff@1"], f.url, status: 2)
        try Self.tokens(["history", "nothing-like-it"], f.url, status: 2)
        #expect(server.stop() == .exited(0))
    }
}
