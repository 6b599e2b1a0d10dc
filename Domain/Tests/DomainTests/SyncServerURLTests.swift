import Domain
import Foundation
import Testing

/// Which sync servers a machine talks to: HTTPS anywhere, plain HTTP only on its loopback,
/// decided on the parsed address, never on a name's prefix.
@Suite("Sync server URL")
struct SyncServerURLTests {
    @Test(
        "loopback is 127.0.0.0/8, ::1 or exactly localhost",
        arguments: [
            ("127.0.0.1", true), ("127.255.1.2", true), ("localhost", true), ("LOCALHOST", true), ("::1", true), ("[::1]", true),
            ("0:0:0:0:0:0:0:1", true), ("0::1", true),
            ("127.example.invalid", false), ("127.0.0.1.example.com", false), ("localhost.example.com", false), ("127.1", false),
            ("127.0.0.256", false), ("127.00.0.1", false), ("128.0.0.1", false), ("10.0.0.1", false), ("::2", false), ("::", false),
            ("1::1", false), ("::ffff:127.0.0.1", false), ("", false),
        ])
    func loopback(host: String, expected: Bool) {
        #expect(SyncServerURL.isLoopback(host) == expected, "\(host)")
    }

    @Test(
        "HTTPS anywhere; HTTP on loopback only, however the name begins",
        arguments: [
            ("https://sync.example.com", nil), ("https://127.example.invalid", nil), ("http://127.0.0.1:8787", nil),
            ("http://[::1]:8787", nil), ("http://localhost:9", nil),
            ("http://127.example.invalid", SyncServerURL.Refusal.plainHTTPOffThisMachine),
            ("http://sync.example.com", .plainHTTPOffThisMachine), ("ftp://sync.example.com", .unsupportedScheme),
            ("sync.example.com", .notAServerURL), ("https://user@sync.example.com", .notAServerURL), ("", .notAServerURL),
        ])
    func checked(text: String, refusal: SyncServerURL.Refusal?) {
        do {
            _ = try SyncServerURL.checked(text)
            #expect(refusal == nil, "\(text) was accepted")
        } catch {
            #expect(error == refusal, "\(text)")
        }
    }
}
