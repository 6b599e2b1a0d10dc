import Foundation
import HTTPTypes
import Hummingbird

/// Before any handler: the body is read up to a limit (more is a 413 problem, read no further)
/// and the client's address (the peer's, or behind a trusted proxy the one it forwards) is handed
/// to the handlers. After them, Hummingbird's own errors (an unknown path, a method a path does
/// not take) become problem documents too.
struct RequestLimitsMiddleware: RouterMiddleware {
    typealias Context = SyncRequestContext
    let maxBodyBytes: Int
    let clientAddress: ClientAddress

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var request = request
        do {
            _ = try await request.collectBody(upTo: maxBodyBytes)
        } catch {
            return Self.response(
                Problem(status: .contentTooLarge, title: "Content too large", detail: "a request body has at most \(maxBodyBytes) bytes"))
        }
        do {
            let address = clientAddress.resolve(peer: context.address, forwardedFor: request.headers[values: Self.forwardedFor])
            return try await RequestAddress.$current.withValue(address) {
                try await RequestConnection.$closed.withValue(context.closed) { try await next(request, context) }
            }
        } catch let error as HTTPError {
            let path = request.uri.path
            let base = SyncServerRouter.basePath
            if error.status == .notFound, path.hasPrefix(base + "/"),
                let allowed = DocumentedRoutes.allowed(for: String(path.dropFirst(base.count)))
            {
                var response = Self.response(
                    Problem(status: .methodNotAllowed, title: "Method not allowed", detail: "this path takes \(allowed.sorted().joined(separator: ", "))"))
                response.headers[.allow] = allowed.sorted().joined(separator: ", ")
                return response
            }
            return Self.response(Problem(status: error.status, title: error.status.reasonPhrase, detail: nil))
        }
    }

    static let forwardedFor = HTTPField.Name("X-Forwarded-For")!

    /// A problem answered before the OpenAPI layer (which answers its own through ProblemMiddleware).
    static func response(_ problem: Problem) -> Response {
        Response(
            status: problem.status, headers: problem.headerFields,
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: problem.json)))
    }
}
