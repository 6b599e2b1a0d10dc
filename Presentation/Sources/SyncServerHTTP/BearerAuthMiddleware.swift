import Foundation
import HTTPTypes
import OpenAPIRuntime
import SyncServer

/// Reads `Authorization: Bearer <token>`, checks the token on every request (so a revocation
/// holds at once on every instance) and hands the device to the handler. Which operations need
/// a caller is the handlers' to say (`RequestCaller.required()`), so the document and the
/// code do not keep two lists.
struct BearerAuthMiddleware: ServerMiddleware {
    let authenticate: any AuthenticateDeviceUseCase

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        // Authenticated already from the headers, before the body was read (RequestLimitsMiddleware).
        if RequestCaller.current != nil { return try await next(request, body, metadata) }
        guard let header = request.headerFields[.authorization] else { return try await next(request, body, metadata) }
        guard let token = Self.token(in: header) else { throw Problem.unauthorized }
        let caller = try await authenticate.execute(token: token)
        return try await RequestCaller.$current.withValue(caller) { try await next(request, body, metadata) }
    }

    /// The token of a `Bearer` header: 32 bytes in base64; nil for anything else.
    static func token(in header: String) -> SyncSecret? {
        let prefix = "Bearer "
        guard header.count <= 200, header.hasPrefix(prefix) else { return nil }
        return Data(base64Encoded: String(header.dropFirst(prefix.count))).flatMap { SyncSecret(bytes: Array($0)) }
    }
}
