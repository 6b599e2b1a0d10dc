import Foundation
import IntegrationTestSupport
import Testing

/// `tokens sync`, the installed client as a process, against a server that misbehaves over real
/// HTTP: pages that never end, pages that move on for ever, an answer of 256 MiB,
/// an answer sent a byte at a time. Each sync ends by itself within the client's bounds (pages per
/// sync, bytes per answer, 30 s per request), says what happened in one line, stays under 200 MB,
/// and leaves the vault as it was: once the server is honest again, the next sync goes through.
@Suite("tokens sync against a hostile server")
struct SyncHostileServerTests {
    typealias CLI = SyncCLITests

    @Test(
        "each hostile answer: the sync ends by itself with one line, under 200 MB; the vault is unharmed",
        arguments: [
            HostileAnswer.emptyPagesForever, .progressingPagesForever, .huge(megabytes: 256), .trickle(milliseconds: 500),
        ])
    func hostile(_ answer: HostileAnswer) throws {
        let server = try ServerProcess(["--phase", "dev"])
        let proxy = try FaultProxy(target: try #require(server.baseURL.port))
        let laptop = try TemporaryHome()
        try CLI.tokens(["init"], laptop.url)
        try CLI.tokens(["add", "-"], laptop.url, input: CLI.github + "\n")
        try CLI.tokens(["sync", "init", "--server", proxy.url.absoluteString, "--name", "laptop"], laptop.url)
        let before = try CLI.accounts(laptop.url)

        proxy.set(.answer(answer))
        let started = Date()
        let result = try TokensProcess.run(
            ["--phase", "real", "sync"], home: laptop.url, environment: Vaults.environment(), measuringPeakMemory: true)
        let seconds = Date().timeIntervalSince(started)
        let lines = result.stderr.split(separator: "\n")
        #expect(result.status != 0 && result.status < 128, "ended by itself with a failure: \(result.status)")
        #expect(lines.count == 1, "one line: \(result.stderr)")
        let peak = try #require(result.peakResidentBytes)
        #expect(peak < 200 << 20, "peak resident \(peak >> 20) MB")
        print(
            "\(answer): \(String(format: "%.1f", seconds)) s, \(peak >> 20) MB: \(result.stderr.trimmingCharacters(in: .whitespacesAndNewlines))"
        )

        proxy.set(.pass)
        try CLI.tokens(["sync"], laptop.url)
        #expect(try CLI.accounts(laptop.url) == before)
        proxy.stop()
        #expect(server.stop() == .exited(0))
    }
}
