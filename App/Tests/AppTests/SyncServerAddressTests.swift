import AppConfiguration
import Foundation
import Testing

@testable import tokens

/// Which servers `tokens sync` talks to: HTTPS, or HTTP only on this machine.
@Suite("Sync server address")
struct SyncServerAddressTests {
    @Test(
        "HTTPS anywhere, HTTP on loopback only; ALPHA defaults to the staging server, REAL to none",
        arguments: [
            ("https://sync.example.com", Phase.real, true), ("https://sync.example.com:8443/base", .real, true),
            ("http://127.0.0.1:8787", .real, true), ("http://localhost:9", .real, true), ("http://[::1]:8787", .real, true),
            ("http://sync.example.com", .real, false), ("http://10.0.0.1:8787", .real, false), ("ftp://sync.example.com", .real, false),
            ("sync.example.com", .real, false), ("https://user@sync.example.com", .real, false),
            ("https://sync.example.com/?q=1", .real, false),
            ("", .real, false), ("http://127.example.invalid", .real, false),
        ])
    func accepts(text: String, phase: Phase, accepted: Bool) {
        let result = try? SyncServerAddress.resolve(text, phase: phase)
        #expect((result != nil) == accepted, "\(text)")
    }

    @Test("without --server: ALPHA uses the staging server; REAL asks for one")
    func defaults() throws {
        #expect(try SyncServerAddress.resolve(nil, phase: .alpha).absoluteString == "http://127.0.0.1:8787")
        #expect(throws: CLIError.self) { try SyncServerAddress.resolve(nil, phase: .real) }
    }
}
