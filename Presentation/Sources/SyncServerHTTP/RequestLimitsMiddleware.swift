import Foundation
import HTTPTypes
import Hummingbird
import SyncServer

/// Before any handler: a request with a bearer token is authenticated from its headers (a pull's
/// token is handed to its handler unchecked, which checks it in its first read of the store), and
/// a push must have one, before a byte of the body is read (an anonymous client cannot make the
/// server hold megabytes: its device admitted, then checked again in the push's write); the body is read up to its route's limit (BodyLimits; more is a 413,
/// read no further) within the server's budget for bodies in flight (BodyBudget; past it a 503);
/// and the client's address (the peer's, or behind a trusted proxy the one it forwards) is handed
/// to the handlers. After them, Hummingbird's own errors (an unknown path, a method a path does
/// not take) become problem documents too.
struct RequestLimitsMiddleware: RouterMiddleware {
    typealias Context = SyncRequestContext
    let maxBodyBytes: Int
    let clientAddress: ClientAddress
    let authenticate: any AuthenticateDeviceUseCase
    let budget: BodyBudget

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let route = BodyLimits.limit(method: request.method, path: request.uri.path, maxBodyBytes: maxBodyBytes)
        let ownCheck = BodyLimits.checksOwnToken(method: request.method, path: request.uri.path)
        var caller: AuthenticatedDevice?
        var unchecked: SyncSecret?
        do {
            if ownCheck {
                unchecked = try Self.token(of: request)
            } else if BodyLimits.checksTokenInWrite(method: request.method, path: request.uri.path) {
                guard let token = try Self.token(of: request) else { throw Problem.unauthorized }
                caller = try await authenticate.admit(token: token)
                unchecked = token
            } else {
                caller = try await authenticated(request, needed: route.needsDevice)
            }
        } catch let error as SyncServerError {
            SyncServerMetrics.refused(error)
            return Self.response(Problem(error))
        } catch let problem as Problem {
            return Self.response(problem)
        }
        let declared = request.headers[.contentLength].flatMap { Int($0) }
        if let declared, declared > route.bytes { return Self.response(Self.tooLarge(route.bytes)) }
        let reserved = min(declared ?? route.bytes, route.bytes)
        guard budget.reserve(reserved) else {
            return Self.response(
                Problem(
                    status: .serviceUnavailable, title: "Service unavailable",
                    detail: "the server is reading as many request bodies as it may; try again shortly",
                    retryAfterSeconds: 1))
        }
        defer { budget.release(reserved) }
        var request = request
        do {
            _ = try await request.collectBody(upTo: route.bytes)
        } catch {
            return Self.response(Self.tooLarge(route.bytes))
        }
        do {
            let address = clientAddress.resolve(peer: context.address, forwardedFor: request.headers[values: Self.forwardedFor])
            return try await RequestAddress.$current.withValue(address) {
                try await RequestConnection.$closed.withValue(context.closed) {
                    try await RequestCaller.$current.withValue(caller) {
                        try await RequestCaller.$unchecked.withValue(unchecked) { try await next(request, context) }
                    }
                }
            }
        } catch let error as HTTPError {
            let path = request.uri.path
            let base = SyncServerRouter.basePath
            if error.status == .notFound, path.hasPrefix(base + "/"),
                let allowed = DocumentedRoutes.allowed(for: String(path.dropFirst(base.count)))
            {
                var response = Self.response(
                    Problem(
                        status: .methodNotAllowed, title: "Method not allowed",
                        detail: "this path takes \(allowed.sorted().joined(separator: ", "))"))
                response.headers[.allow] = allowed.sorted().joined(separator: ", ")
                return response
            }
            return Self.response(Problem(status: error.status, title: error.status.reasonPhrase, detail: nil))
        }
    }

    static let forwardedFor = HTTPField.Name("X-Forwarded-For")!

    /// The device of the request's bearer token (nil without one, unless `needed`).
    private func authenticated(_ request: Request, needed: Bool) async throws -> AuthenticatedDevice? {
        guard let token = try Self.token(of: request) else {
            if needed { throw Problem.unauthorized }
            return nil
        }
        return try await authenticate.execute(token: token)
    }

    /// The request's bearer token, nil without one; a header that is not one is "unauthorized".
    private static func token(of request: Request) throws -> SyncSecret? {
        guard let header = request.headers[.authorization] else { return nil }
        guard let token = token(in: header) else { throw Problem.unauthorized }
        return token
    }

    /// The token of a `Bearer` header: 32 bytes in base64; nil for anything else. Checked on every
    /// request, in the store (so a revocation holds at once on every instance); which operations need a caller
    /// is the handlers' to say (`RequestCaller.required()`), so the document and the code keep
    /// no second list.
    static func token(in header: String) -> SyncSecret? {
        let prefix = "Bearer "
        guard header.count <= 200, header.hasPrefix(prefix) else { return nil }
        return Data(base64Encoded: String(header.dropFirst(prefix.count))).flatMap { SyncSecret(bytes: Array($0)) }
    }

    static func tooLarge(_ bytes: Int) -> Problem {
        Problem(status: .contentTooLarge, title: "Content too large", detail: "a request body here has at most \(bytes) bytes")
    }

    /// A problem answered before the OpenAPI layer (which answers its own through ProblemMiddleware).
    static func response(_ problem: Problem) -> Response {
        Response(
            status: problem.status, headers: problem.headerFields,
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: problem.json)))
    }
}
