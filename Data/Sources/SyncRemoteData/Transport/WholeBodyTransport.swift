import AsyncHTTPClient
import Foundation
import HTTPTypes
import NIOCore
import NIOHTTP1
import OpenAPIRuntime

/// The generated client's requests sent through AsyncHTTPClient with each body whole. A body
/// sync sends is JSON already in memory; AsyncHTTPClient writes a whole body with the request's
/// head, where it writes a streamed one from a task on the global pool: whenever that pool was
/// busy, the server held the request's head and waited for its body while the client's deadline
/// ran out.
struct WholeBodyTransport: ClientTransport {
    let client: HTTPClient
    let timeout: TimeAmount
    /// The largest request body sent: the server refuses anything past its own, smaller limit.
    static let maxBodyBytes = 32 << 20

    func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        var outgoing = HTTPClientRequest(url: try Self.url(of: request, on: baseURL))
        outgoing.method = HTTPMethod(rawValue: request.method.rawValue)
        for field in request.headerFields { outgoing.headers.add(name: field.name.canonicalName, value: field.value) }
        if let body {
            let bytes = try await ArraySlice<UInt8>(collecting: body, upTo: Self.maxBodyBytes)
            outgoing.body = .bytes(ByteBuffer(bytes: bytes))
        }
        let answer = try await client.execute(outgoing, timeout: timeout)
        var fields = HTTPFields()
        for header in answer.headers {
            if let name = HTTPField.Name(header.name) { fields.append(HTTPField(name: name, value: header.value)) }
        }
        let length = fields[.contentLength].flatMap { Int64($0) }.map(HTTPBody.Length.known) ?? .unknown
        let response = HTTPResponse(status: .init(code: Int(answer.status.code)), headerFields: fields)
        guard request.method != .head else { return (response, nil) }
        return (response, HTTPBody(answer.body.map { $0.readableBytesView }, length: length, iterationBehavior: .single))
    }

    /// The base URL's path and the operation's path and query, joined.
    static func url(of request: HTTPRequest, on baseURL: URL) throws -> String {
        guard var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false),
            let operation = URLComponents(string: request.path ?? "")
        else { throw InvalidRequestURL() }
        components.percentEncodedPath += operation.percentEncodedPath
        components.percentEncodedQuery = operation.percentEncodedQuery
        guard let url = components.url else { throw InvalidRequestURL() }
        return url.absoluteString
    }

    /// An operation's path that makes no URL with the server's (the generated client makes none).
    struct InvalidRequestURL: Error {}
}
