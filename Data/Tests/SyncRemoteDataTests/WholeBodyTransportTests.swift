import Foundation
import HTTPTypes
import Testing

@testable import SyncRemoteData

/// Where the whole-body transport sends an operation: the server's base URL, path prefix kept,
/// and the operation's path and query as the generated client wrote them.
@Suite("Request URLs")
struct WholeBodyTransportTests {
    func url(_ path: String, on base: String) throws -> String {
        try WholeBodyTransport.url(of: HTTPRequest(method: .get, scheme: nil, authority: nil, path: path), on: URL(string: base)!)
    }

    @Test("a base URL without a path takes the operation's path and query")
    func plainBase() throws {
        #expect(try url("/v1/entries?after=5", on: "https://sync.example:8443") == "https://sync.example:8443/v1/entries?after=5")
    }

    @Test("a base URL's path stays in front of the operation's; its escapes are kept as written")
    func prefixedBase() throws {
        #expect(try url("/v1/devices/a%2Fb", on: "http://127.0.0.1:9000/tokens") == "http://127.0.0.1:9000/tokens/v1/devices/a%2Fb")
    }
}
