import Foundation
import Hummingbird

/// Before any handler: the body is read up to a limit (more is a 413 problem, read no further)
/// and the peer's address is handed to the handlers.
struct RequestLimitsMiddleware: RouterMiddleware {
    typealias Context = SyncRequestContext
    let maxBodyBytes: Int

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var request = request
        do {
            _ = try await request.collectBody(upTo: maxBodyBytes)
        } catch {
            return Self.response(
                Problem(status: .contentTooLarge, title: "Content too large", detail: "a request body has at most \(maxBodyBytes) bytes"))
        }
        return try await RequestAddress.$current.withValue(context.address) { try await next(request, context) }
    }

    /// A problem answered before the OpenAPI layer (which answers its own through ProblemMiddleware).
    static func response(_ problem: Problem) -> Response {
        Response(
            status: problem.status, headers: [.contentType: "application/problem+json"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: problem.json)))
    }
}
