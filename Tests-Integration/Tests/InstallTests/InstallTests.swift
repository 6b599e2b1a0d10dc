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
        #expect(fish.contains("complete -c 'tokens'"))
        let manual = try String(contentsOf: prefix.appendingPathComponent(Self.files[1]), encoding: .utf8)
        #expect(manual.contains(".Dt TOKENS 1"))
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
        #expect(try ELFProgramHeaders(path: installed).types.isDisjoint(with: [ELFProgramHeaders.interpreter, ELFProgramHeaders.dynamic]))
        // The control: the debug build is dynamic, so the check can fail.
        #expect(try ELFProgramHeaders(path: TokensProcess.binary).types.contains(ELFProgramHeaders.interpreter))
        // QR codes come from Tokens' own encoder, with no library to load.
        let home = try TemporaryHome()
        let qr = try ProcessRunner.run(installed, ["qr", "github", "--phase", "dev"], environment: TokensProcess.environment(home: home.url))
        #expect(qr.status == 0, "\(qr.stderr)")
        #expect(qr.stdout.contains("█"))
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

/// The program header types of a 64-bit little-endian ELF file.
struct ELFProgramHeaders {
    static let dynamic: UInt32 = 2
    static let interpreter: UInt32 = 3
    let types: Set<UInt32>

    init(path: String) throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)).prefix(1 << 16))
        func integer(at offset: Int, size: Int) -> Int {
            (0..<size).reduce(0) { $0 | Int(bytes[offset + $1]) << (8 * $1) }
        }
        try #require(bytes.starts(with: [0x7F, 0x45, 0x4C, 0x46, 2, 1]), "not a 64-bit little-endian ELF file")
        let offset = integer(at: 0x20, size: 8)
        let size = integer(at: 0x36, size: 2)
        let count = integer(at: 0x38, size: 2)
        try #require(offset + size * count <= bytes.count)
        types = Set((0..<count).map { UInt32(integer(at: offset + $0 * size, size: 4)) })
    }
}
