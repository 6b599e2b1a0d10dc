import AppComposition
import AppConfiguration
import Foundation
import Synchronization
import Testing

/// Passphrases given without a terminal, as other packages (the bench) and the CLI give them.
@Suite("Passphrase sources")
struct PassphraseSourceTests {
    /// A private temporary folder, removed by `remove()`.
    struct Folder {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("passphrase-\(UUID())")
        init() throws { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
        func file(_ name: String, _ text: String, mode: Int = 0o600) throws -> String {
            let path = url.appendingPathComponent(name).path
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
            return path
        }
        func remove() { try? FileManager.default.removeItem(at: url) }
    }

    static func settings(_ folder: Folder) -> AppSettings {
        AppSettings(
            phase: Sourced(.real, from: .flag("--phase")), logLevel: Sourced(.info, from: .default),
            vaultPath: Sourced(folder.url.appendingPathComponent("vault.sqlite").path, from: .default),
            configFile: "/x", configFileExists: false)
    }

    @Test("the file wins over the variable; one trailing newline is not part of it")
    func fileFirst() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let path = try folder.file("pass", "from file\n")
        let source = PassphraseSource(file: path, environment: [PassphraseSource.variable: "from env"], warn: { _ in })
        #expect(try source.givenBytes() == Array("from file".utf8))
        #expect(
            try PassphraseSource(environment: [PassphraseSource.variable: "from env"], warn: { _ in }).givenBytes()
                == Array("from env".utf8))
        #expect(try PassphraseSource.none.given() == nil)
    }

    @Test("a missing or empty file and an empty variable are clear errors")
    func errors() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let empty = try folder.file("empty", "\n")
        #expect(throws: PassphraseSourceError.emptyFile(empty)) {
            try PassphraseSource(file: empty, environment: [:], warn: { _ in }).given()
        }
        #expect(throws: PassphraseSourceError.unreadableFile("/nonexistent/pass", reason: "no such file or directory")) {
            try PassphraseSource(file: "/nonexistent/pass", environment: [:], warn: { _ in }).given()
        }
        #expect(throws: PassphraseSourceError.unreadableFile(folder.url.path, reason: "it is a folder, not a file")) {
            try PassphraseSource(file: folder.url.path, environment: [:], warn: { _ in }).given()
        }
        #expect(throws: PassphraseSourceError.emptyVariable("TOKENS_PASSPHRASE")) {
            try PassphraseSource(environment: ["TOKENS_PASSPHRASE": ""], warn: { _ in }).given()
        }
        #expect(
            String(describing: PassphraseSourceError.unreadableFile("/p", reason: "permission denied"))
                == "cannot read passphrase file /p: permission denied")
    }

    @Test("a file other users can read is used, with a warning")
    func readableByOthers() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let path = try folder.file("pass", "secret", mode: 0o644)
        let warnings = Mutex<[String]>([])
        let source = PassphraseSource(file: path, environment: [:], warn: { line in warnings.withLock { $0.append(line) } })
        #expect(try source.givenBytes() == Array("secret".utf8))
        #expect(warnings.withLock { $0 } == ["warning: other users can read \(path); make it private with chmod 600"])
    }

    @Test("the public factories create and open a REAL vault from a given passphrase, and refuse without one")
    func publicFactories() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let settings = Self.settings(folder)
        let right = PassphraseSource(environment: [PassphraseSource.variable: "correct horse battery staple"], warn: { _ in })
        #expect(throws: CompositionError.noPassphrase) { try AppComposer.createVault(for: settings, passphrase: .none) }
        _ = try AppComposer.createVault(for: settings, passphrase: right)
        let container = try AppComposer.makeContainer(for: settings, passphrase: right)
        #expect(container.phase == .real)
        try container.close()
        #expect(throws: CompositionError.noPassphrase) { try AppComposer.makeContainer(for: settings) }
        let wrong = PassphraseSource(environment: [PassphraseSource.variable: "wrong"], warn: { _ in })
        #expect(throws: (any Error).self) { try AppComposer.makeContainer(for: settings, passphrase: wrong) }
    }
}
