import Foundation
import HTTPTypes
import Logging
import OpenAPIRuntime
import SyncServer

/// The outermost middleware: every error becomes a problem+json answer. The rules' refusals and
/// malformed requests are 4xx with a sentence; anything else is a 500 that says nothing of its
/// cause (which is logged, without request bodies or tokens).
struct ProblemMiddleware: ServerMiddleware {
    let logger: Logger

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        do {
            return try await next(request, body, metadata)
        } catch {
            let problem = Self.problem(for: error)
            if problem.status == .internalServerError {
                logger.error("\(operationID) failed: \(String(describing: type(of: Self.cause(of: error))))")
            }
            return Self.response(problem)
        }
    }

    static func cause(of error: any Error) -> any Error {
        (error as? ServerError)?.underlyingError ?? error
    }

    /// The problem an error stands for.
    static func problem(for error: any Error) -> Problem {
        switch cause(of: error) {
        case let problem as Problem: return problem
        case let refusal as SyncServerError:
            SyncServerMetrics.refused(refusal)
            return Problem(refusal)
        case is DecodingError: return .badRequest("the body does not match the API document's schema")
        default:
            if let server = error as? ServerError, (400..<500).contains(server.httpStatus.code) {
                return Problem(
                    status: server.httpStatus, title: server.httpStatus.reasonPhrase,
                    detail: "the request does not match the API document (\(server.causeDescription.prefix(120)))")
            }
            return .internalError
        }
    }

    /// The answer: status, `application/problem+json`, and `Retry-After` when there is one.
    static func response(_ problem: Problem) -> (HTTPResponse, HTTPBody?) {
        (HTTPResponse(status: problem.status, headerFields: problem.headerFields), HTTPBody(problem.json))
    }
}

/// RFC 9457's document, as the API document's `Problem` schema describes it.
struct ProblemDocument: Codable, Equatable {
    var type: String? = nil
    let title: String
    let status: Int
    let detail: String?
}
