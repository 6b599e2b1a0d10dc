import Foundation
import IntegrationTestSupport

/// One client of the load: a device of an account of its own, whose entries it pushes and pulls.
public struct LoadClient: Sendable {
    public let token: String
    /// The entry its pushes change.
    public let entry: UUID
    /// The entry's sequence (what the next push is based on) and the account's head, as last read.
    public var based: Int64 = 0
    public var head: Int64 = 0
}

/// The accounts a load runs on, made through the API as a user's devices make theirs: for each
/// client an account, a device (named `PREFIX-N`: pgbench's clients find theirs by name) and
/// `entries` entries, pushed 100 at a time (the server's limit).
public enum LoadFixture {
    /// Entries an account holds unless the load says otherwise (`--entries`).
    public static let entriesPerAccount = 20

    public static func clients(
        _ count: Int, named prefix: String, entries entryCount: Int = entriesPerAccount, on server: ServerProcess
    ) async throws -> [LoadClient] {
        var clients: [LoadClient] = []
        for index in 0..<count {
            let account = UUID().uuidString.lowercased()
            let authKey = Data((0..<32).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
            try expect(201, try await server.request("POST", "/v1/accounts", json: ["accountId": account, "authKey": authKey]))
            let enrolled = try await server.request(
                "POST", "/v1/accounts/\(account)/devices", json: ["authKey": authKey, "name": "\(prefix)-\(index)"])
            try expect(201, enrolled)
            guard let token = try object(enrolled.body)["token"] as? String else {
                throw LoadError.unexpected("no token in \(enrolled.body)")
            }
            let entries = (0..<entryCount).map { _ in UUID() }
            for start in stride(from: 0, to: entries.count, by: 100) {
                let changes = entries[start..<min(start + 100, entries.count)].map { id -> [String: Any] in
                    [
                        "id": id.uuidString.lowercased(), "basedOn": 0, "deleted": false, "keyVersion": 1, "nonce": "AAECAwQFBgcICQoL",
                        "ciphertext": Data(repeating: 0x2a, count: 256).base64EncodedString(),
                    ]
                }
                try expect(200, try await server.request("POST", "/v1/entries", json: ["changes": changes], token: token))
            }
            clients.append(LoadClient(token: token, entry: entries.sorted { $0.uuidString.lowercased() < $1.uuidString.lowercased() }[0]))
        }
        return try await refreshed(clients, on: server)
    }

    /// `clients` with the sequence of their entry and the head of their account read again.
    public static func refreshed(_ clients: [LoadClient], on server: ServerProcess) async throws -> [LoadClient] {
        var fresh: [LoadClient] = []
        for var client in clients {
            let page = try await server.request("GET", "/v1/entries?after=0", token: client.token)
            try expect(200, page)
            let body = try object(page.body)
            client.head = (body["head"] as? NSNumber)?.int64Value ?? 0
            let entries = body["entries"] as? [[String: Any]] ?? []
            let mine = entries.first { ($0["id"] as? String)?.lowercased() == client.entry.uuidString.lowercased() }
            client.based = (mine?["sequence"] as? NSNumber)?.int64Value ?? 0
            fresh.append(client)
        }
        return fresh
    }

    /// The clients as sync.lua reads them: `TOKEN ENTRY_ID BASED_ON HEAD` per line.
    public static func write(_ clients: [LoadClient], to file: URL) throws {
        let lines = clients.map { "\($0.token) \($0.entry.uuidString.lowercased()) \($0.based) \($0.head)\n" }
        try lines.joined().write(to: file, atomically: true, encoding: .utf8)
    }

    private static func expect(_ status: Int, _ answer: (status: Int, body: Data, contentType: String?, retryAfter: String?)) throws {
        guard answer.status == status else {
            throw LoadError.unexpected("status \(answer.status), not \(status): \(String(decoding: answer.body, as: UTF8.self))")
        }
    }

    private static func object(_ data: Data) throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw LoadError.unexpected("not a JSON object")
        }
        return object
    }
}

/// A load run that could not be set up or measured.
public enum LoadError: Error, CustomStringConvertible {
    case unexpected(String)
    case tool(String)

    public var description: String {
        switch self {
        case .unexpected(let what): "unexpected answer: \(what)"
        case .tool(let what): what
        }
    }
}
