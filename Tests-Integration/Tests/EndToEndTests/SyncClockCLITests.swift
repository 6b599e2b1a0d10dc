import Foundation
import IntegrationTestSupport
import Testing

/// This machine's clock against the sync server's, through the binaries: a DEV `tokens-server`
/// whose clock runs five minutes ahead (libfaketime, preloaded into the server alone) and a
/// REAL vault syncing with it. The sync warns, codes warn until `codes.offset auto` computes
/// them at the server's time, `--at` still wins, and `tokens doctor` says it.
@Suite(
    "The clock checked against the sync server",
    .enabled(if: FakeTime.library != nil || RequiredTests.all, "libfaketime is not installed (make deps-test installs it)"))
struct SyncClockCLITests {
    static let ahead = 300

    @Test("a server 5 min ahead: a sync warns; codes.offset auto computes codes at its time and says so; --at wins; doctor warns")
    func serverAhead() throws {
        let library = try #require(FakeTime.library, "libfaketime is not installed")
        // Preloaded libfaketime leaves a Swift program's CommandLine.arguments empty (seen with
        // Debian's 0.9.10), so the server's settings come from the environment too.
        let server = try ServerProcess(
            ["--phase", "dev"],
            environment: [
                "LD_PRELOAD": library, "FAKETIME": "+\(Self.ahead)s", "FAKETIME_DONT_FAKE_MONOTONIC": "1", "TOKENS_PHASE": "dev",
                "TOKENS_SERVER_HOST": "127.0.0.1", "TOKENS_SERVER_PORT": "0",
            ])
        let home = try TemporaryHome()
        try SyncCLITests.tokens(["init"], home.url)
        try SyncCLITests.tokens(["add", "-"], home.url, input: SyncCLITests.github + "\n")
        let joined = try SyncCLITests.tokens(["sync", "init", "--server", server.baseURL.absoluteString, "--name", "laptop"], home.url)
        #expect(
            joined.stderr.contains("tokens: this machine's clock is 5 min behind the sync server's, so its codes may be refused"),
            "the server's clock must run 5 min ahead under libfaketime: \(joined.stderr)")
        #expect(joined.stderr.contains("set codes.offset to auto"))

        // codes.offset 0 (the default): this machine's time, and the warning on standard error.
        let before = Int(Date().timeIntervalSince1970)
        let plain = try SyncCLITests.tokens(["code", "github"], home.url)
        let corrected = try TokensProcess.run(
            ["--phase", "real", "code", "github"], home: home.url,
            environment: Vaults.environment().merging(["TOKENS_CODES_OFFSET": "auto"]) { $1 })
        let after = Int(Date().timeIntervalSince1970)
        // Without auto, a one-shot code reads no sync state (its read path stays alone): the sync warned.
        #expect(plain.stderr.isEmpty, "\(plain.stderr)")
        #expect(corrected.status == 0, "\(corrected.stderr)")
        #expect(corrected.stderr.contains("codes are computed at the server's time (codes.offset auto)"), "\(corrected.stderr)")
        func code(at time: Int) throws -> String { try SyncCLITests.tokens(["code", "github", "--at", String(time)], home.url).stdout }
        let here = try Set([before, after].map(code(at:)))
        let there = try Set([before + Self.ahead, after + Self.ahead].map(code(at:)))
        #expect(here.contains(plain.stdout), "\(plain.stdout) not among \(here)")
        #expect(there.contains(corrected.stdout), "\(corrected.stdout) not among \(there)")
        #expect(!here.contains(corrected.stdout))
        // --at wins over the correction, and needs no warning.
        let at = try TokensProcess.run(
            ["--phase", "real", "code", "github", "--at", String(before)], home: home.url,
            environment: Vaults.environment().merging(["TOKENS_CODES_OFFSET": "auto"]) { $1 })
        #expect(at.stdout == (try code(at: before)) && at.stderr.isEmpty, "\(at.stderr)")
        // A limit above the offset: corrected all the same, nothing to say.
        let tolerant = try TokensProcess.run(
            ["--phase", "real", "code", "github"], home: home.url,
            environment: Vaults.environment().merging(["TOKENS_CLOCK_WARN": "600", "TOKENS_CODES_OFFSET": "auto"]) { $1 })
        #expect(tolerant.status == 0 && tolerant.stderr.isEmpty, "\(tolerant.stderr)")
        // A sync on the way warns whatever the setting.
        let synced = try SyncCLITests.tokens(["code", "github", "--sync"], home.url)
        #expect(synced.stderr.contains("5 min behind the sync server's, so its codes may be refused"), "\(synced.stderr)")

        // doctor asks the server afresh; --offline judges by the last sync; a server gone fails.
        func doctor(_ arguments: [String] = []) throws -> (lines: [String], status: Int32) {
            let result = try TokensProcess.run(
                ["--phase", "real", "doctor"] + arguments, home: home.url,
                environment: Vaults.environment().merging(["TOKENS_BACKUP_AUTO": "0"]) { $1 })
            return (result.stdout.split(separator: "\n").map(String.init), result.status)
        }
        let asked = try doctor()
        let clock = asked.lines.first { $0.hasPrefix("clock") } ?? ""
        #expect(clock.hasPrefix("clock    warn  "), "\(asked.lines)")
        #expect(clock.contains("5 min behind the sync server's, within "), "\(clock)")
        #expect(clock.hasSuffix("turn on time sync (chrony, or systemd-timesyncd: timedatectl set-ntp true), or set codes.offset to auto"))
        #expect(asked.lines.contains { $0.hasPrefix("server   ok    \(server.baseURL.absoluteString) answered in ") }, "\(asked.lines)")
        #expect(asked.status == 1)
        let offline = try doctor(["--offline"])
        #expect(!offline.lines.contains { $0.hasPrefix("server") } && offline.lines.last?.hasPrefix("clock    warn  ") == true)
        server.stop()
        let gone = try doctor()
        #expect(
            gone.lines.contains("server   fail  \(server.baseURL.absoluteString): offline: the server cannot be reached"), "\(gone.lines)")
        #expect(gone.status == 1)
    }
}

/// Debian's libfaketime, for this machine's architecture: preloaded into one process, it moves
/// that process's clock alone (`FAKETIME`).
enum FakeTime {
    static let library: String? = {
        let lib = URL(fileURLWithPath: "/usr/lib")
        let folders = (try? FileManager.default.contentsOfDirectory(atPath: lib.path)) ?? []
        return folders.map { lib.appendingPathComponent($0).appendingPathComponent("faketime/libfaketime.so.1").path }
            .first { FileManager.default.fileExists(atPath: $0) }
    }()
}
