import Foundation
import IntegrationTestSupport
import Testing

/// `make install` as a user gets it. `make test-install` installs into a temporary prefix and
/// runs these with TOKENS_INSTALL_PREFIX set; on their own they are skipped.
@Suite(
    "make install and make uninstall",
    .enabled(if: ProcessInfo.processInfo.environment["TOKENS_INSTALL_PREFIX"] != nil, "set by make test-install"),
    .serialized)
struct InstallTests {
    let prefix = URL(fileURLWithPath: ProcessInfo.processInfo.environment["TOKENS_INSTALL_PREFIX"] ?? "/nonexistent")
    var installed: String { prefix.appendingPathComponent("bin/tokens").path }

    /// The files `make install` puts under the prefix.
    static let files = [
        "bin/tokens", "share/man/man1/tokens.1", "share/bash-completion/completions/tokens",
        "share/zsh/site-functions/_tokens", "share/fish/vendor_completions.d/tokens.fish", "share/tokens/install-manifest",
        "share/systemd/user/tokens-backup.service", "share/systemd/user/tokens-backup.timer",
    ]

    /// The toolchain's runtime library folders (for example /opt/swift/usr/lib/swift and swift_static).
    static func toolchainLibraryFolders() throws -> [String] {
        let info = try ProcessRunner.run("swift", ["-print-target-info"])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(info.stdout.utf8)) as? [String: Any])
        let paths = try #require(json["paths"] as? [String: Any])
        let resources = try #require(paths["runtimeResourcePath"] as? String)
        let folders = [resources, resources + "_static"].filter { FileManager.default.fileExists(atPath: $0) }
        try #require(!folders.isEmpty)
        return folders
    }

    /// Runs a program in a private mount namespace where the toolchain's library folders are
    /// empty (a tmpfs over each), as on a machine without the Swift toolchain.
    static func runWithoutToolchain(
        _ program: String, _ arguments: [String], hiding folders: [String], home: URL
    ) throws -> ProcessResult {
        let hide = folders.map { "mount -t tmpfs none '\($0)'" }.joined(separator: " && ")
        let script = "\(hide) && exec \"$@\""
        return try ProcessRunner.run(
            "unshare", ["--mount", "--map-root-user", "sh", "-c", script, "sh", program] + arguments,
            environment: TokensProcess.environment(home: home))
    }

    @Test("installs the binary, the bash, zsh and fish completions and the man page")
    func installedFiles() throws {
        for file in Self.files {
            let path = prefix.appendingPathComponent(file).path
            #expect(FileManager.default.fileExists(atPath: path), "missing \(file)")
        }
        #expect(FileManager.default.isExecutableFile(atPath: installed))
        let bash = try String(contentsOf: prefix.appendingPathComponent(Self.files[2]), encoding: .utf8)
        let zsh = try String(contentsOf: prefix.appendingPathComponent(Self.files[3]), encoding: .utf8)
        let fish = try String(contentsOf: prefix.appendingPathComponent(Self.files[4]), encoding: .utf8)
        #expect(bash.contains("complete") && bash.contains("config"))
        #expect(zsh.hasPrefix("#compdef tokens"))
        #expect(fish.contains("complete -c tokens "))
        let manual = try String(contentsOf: prefix.appendingPathComponent(Self.files[1]), encoding: .utf8)
        #expect(manual.contains(".Dt TOKENS 1"))
        for section in [
            ".Sh ENVIRONMENT", ".Sh FILES", ".Sh \"EXIT STATUS\"", ".It Ev TOKENS_PASSPHRASE", ".It Pa $XDG_DATA_HOME/tokens/vault.sqlite",
        ] {
            #expect(manual.components(separatedBy: section + "\n").count == 2, "the man page has no \(section), or has it twice")
        }
        #expect(!manual.contains("_manual"), "the man page lists the hidden command")
        for status in ["4  wrong passphrase", "5  the vault is damaged", "64  the command line is wrong"] {
            #expect(manual.contains(status), "the man page does not list \(status)")
        }
    }

    @Test("the installed binary runs with the toolchain's libraries out of reach; a dynamic build does not")
    func runsWithoutToolchain() throws {
        let home = try TemporaryHome()
        let folders = try Self.toolchainLibraryFolders()
        let version = try Self.runWithoutToolchain(installed, ["--version"], hiding: folders, home: home.url)
        #expect(version.status == 0, "\(version.stderr)")
        #expect(version.stdout.contains("(vault format "))
        let listed = try Self.runWithoutToolchain(
            installed, ["list", "--phase", "dev", "--at", "59"], hiding: folders, home: home.url)
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.stdout.contains("GitHub"))
        // The control: the debug build links the Swift runtime dynamically, so hiding the
        // toolchain must break it. Were it to run, the hiding above would prove nothing.
        let dynamic = try Self.runWithoutToolchain(TokensProcess.binary, ["--version"], hiding: folders, home: home.url)
        #expect(dynamic.status != 0)
        #expect(dynamic.stderr.contains("libswift"))
    }

    @Test("the installed binary is a static executable: no program interpreter, no shared library")
    func staticExecutable() throws {
        #expect(try ELFFile(path: installed).programHeaderTypes().isDisjoint(with: [ELFFile.interpreter, ELFFile.dynamic]))
        // The control: the debug build is dynamic, so the check can fail.
        #expect(try ELFFile(path: TokensProcess.binary).programHeaderTypes().contains(ELFFile.interpreter))
        // QR codes come from Tokens' own encoder, with no library to load.
        let home = try TemporaryHome()
        let qr = try ProcessRunner.run(
            installed, ["qr", "github", "--phase", "dev"], environment: TokensProcess.environment(home: home.url))
        #expect(qr.status == 0, "\(qr.stderr)")
        #expect(qr.stdout.contains("█"))
    }

    @Test("the installed binary reads QR codes from a PNG and a JPEG itself: zbar, libpng and libjpeg are inside it")
    func readsPictures() throws {
        let home = try TemporaryHome()
        let qrencode = try #require(ProcessRunner.which("qrencode"), "qrencode is not installed (make deps-test installs it)")
        let uri = "otpauth://totp/Installed:me@example.com?secret=OBQXG43XN5ZGIMJSGM2DKNRXHA4TAMJS&issuer=Installed"
        let png = home.url.appendingPathComponent("code.png").path
        #expect(try ProcessRunner.run(qrencode, ["-s", "4", "-o", png, uri]).status == 0)
        let environment = TokensProcess.environment(home: home.url)
        let added = try ProcessRunner.run(installed, ["add", "--qr", png, "--phase", "dev"], environment: environment)
        #expect(added.status == 0 && added.stdout.hasPrefix("Added Installed (me@example.com)"), "\(added.stdout)\(added.stderr)")
        let convert = ProcessRunner.imageMagickConvert
        let jpeg = home.url.appendingPathComponent("code.jpg").path
        #expect(try ProcessRunner.run(try #require(convert, "ImageMagick is not installed"), [png, "-resize", "200%", jpeg]).status == 0)
        let fromJPEG = try ProcessRunner.run(installed, ["add", "--qr", jpeg, "--phase", "dev"], environment: environment)
        #expect(fromJPEG.status == 0 && fromJPEG.stdout.hasPrefix("Added Installed"), "\(fromJPEG.stdout)\(fromJPEG.stderr)")
    }

    @Test("the installed binary is stripped, as Linux tools are: no symbol table, no debug information")
    func strippedExecutable() throws {
        let sections = try ELFFile(path: installed).sectionNames()
        #expect(!sections.contains(".symtab"), "the installed binary keeps its symbol table")
        #expect(sections.filter { $0.hasPrefix(".debug") }.isEmpty, "the installed binary keeps debug information")
        // Swift's own metadata is not debug information: the runtime needs it, and it stays.
        #expect(sections.contains("swift5_protocol_conformances"))
        // The control: the debug build has both, so the check can fail.
        let debug = try ELFFile(path: TokensProcess.binary).sectionNames()
        #expect(debug.contains(".symtab") && debug.contains(".debug_info"))
    }

    @Test("make uninstall removes exactly what make install wrote, and leaves other files alone")
    func uninstall() throws {
        let home = try TemporaryHome()
        let other = home.url.appendingPathComponent("prefix")
        try FileManager.default.createDirectory(
            at: other.appendingPathComponent("share/man/man1"), withIntermediateDirectories: true)
        let mine = other.appendingPathComponent("share/man/man1/someone-elses.1")
        try Data("not ours\n".utf8).write(to: mine)
        let make = { (target: String) in
            try ProcessRunner.run("make", ["-C", RepositoryRoot.url.path, "--no-print-directory", target, "PREFIX=\(other.path)"])
        }
        let install = try make("install")
        #expect(install.status == 0, "\(install.stderr)")
        #expect(Self.files.allSatisfy { FileManager.default.fileExists(atPath: other.appendingPathComponent($0).path) })
        let removed = try make("uninstall")
        #expect(removed.status == 0, "\(removed.stderr)")
        let left = (FileManager.default.enumerator(atPath: other.path)?.allObjects as? [String] ?? []).sorted()
        #expect(left == ["share", "share/man", "share/man/man1", "share/man/man1/someone-elses.1"])
        let again = try make("uninstall")
        #expect(again.status != 0)
        #expect(again.stderr.contains("nothing to uninstall"))
    }
}

/// A 64-bit little-endian ELF file: its program header types and its section names.
struct ELFFile {
    static let dynamic: UInt32 = 2
    static let interpreter: UInt32 = 3
    private let data: Data

    init(path: String) throws {
        data = try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped)
        try #require(data.starts(with: [0x7F, 0x45, 0x4C, 0x46, 2, 1]), "not a 64-bit little-endian ELF file")
    }

    /// The types of the program headers (PT_INTERP, PT_DYNAMIC…).
    func programHeaderTypes() throws -> Set<UInt32> {
        let (offset, size, count) = (integer(at: 0x20, size: 8), integer(at: 0x36, size: 2), integer(at: 0x38, size: 2))
        try #require(offset + size * count <= data.count)
        return Set((0..<count).map { UInt32(integer(at: offset + $0 * size, size: 4)) })
    }

    /// The names of the sections (.symtab, .debug_info, swift5_protocol_conformances…).
    func sectionNames() throws -> Set<String> {
        let (offset, size, count) = (integer(at: 0x28, size: 8), integer(at: 0x3A, size: 2), integer(at: 0x3C, size: 2))
        let namesIndex = integer(at: 0x3E, size: 2)
        try #require(count > namesIndex && offset + size * count <= data.count, "no section headers")
        let names = integer(at: offset + namesIndex * size + 0x18, size: 8)
        return Set(
            (0..<count).map { index in
                let start = names + integer(at: offset + index * size, size: 4)
                let end = data[start...].firstIndex(of: 0) ?? data.endIndex
                return String(decoding: data[start..<end], as: UTF8.self)
            })
    }

    private func integer(at offset: Int, size: Int) -> Int {
        (0..<size).reduce(0) { $0 | Int(data[offset + $1]) << (8 * $1) }
    }
}
