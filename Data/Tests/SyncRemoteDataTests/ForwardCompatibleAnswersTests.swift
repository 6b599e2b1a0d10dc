import Domain
import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing

@testable import SyncRemoteData

/// A newer server may add fields to its answers (the API document says so): this client reads
/// what it knows and ignores the rest, so a server can be upgraded before its clients.
@Suite("Answers from a newer server")
struct ForwardCompatibleAnswersTests {
    /// A server that answers every request with `json`.
    struct Answering: ClientTransport {
        let json: String
        func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
            (HTTPResponse(status: .ok, headerFields: [.contentType: "application/json"]), HTTPBody(json))
        }
    }

    @Test("a device list with fields this version does not know is read, the unknown ones ignored")
    func unknownFieldsIgnored() async throws {
        let id = UUID()
        let json = """
            {"devices": [{"id": "\(id.uuidString.lowercased())", "name": "laptop", "enrolledAt": "2027-01-15T08:00:00Z",
              "isCaller": true, "platform": "linux", "lastSyncKind": {"pull": 3}}], "nextPage": null}
            """
        let client = Client(serverURL: URL(string: "https://sync.example/v1")!, transport: Answering(json: json))
        let devices = try await RemoteSyncDataSource(api: client, keys: RemoteSyncDataSourceTests.keys).devices()
        #expect(devices.map(\.id) == [id] && devices.map(\.name) == ["laptop"] && devices.first?.isThisDevice == true)
    }
}
