import Foundation
import Hummingbird
import Logging

/// A debug line when a request arrives and when it is answered: its method and path (the query
/// holds only cursors and limits) and then its status. Never headers or bodies: they hold tokens,
/// keys and ciphertext. The path comes from the network, so anything but printable ASCII in it is
/// percent-escaped before it reaches a log (and an operator's terminal).
struct AccessLogMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let metadata: Logger.Metadata = ["method": "\(request.method.rawValue)", "path": "\(Self.printable(request.uri.description))"]
        context.logger.debug("request", metadata: metadata)
        let response = try await next(request, context)
        context.logger.debug("answered", metadata: metadata.merging(["status": "\(response.status.code)"]) { $1 })
        return response
    }

    /// `text` with every byte outside printable ASCII (and `%` itself) as `%XX`.
    static func printable(_ text: String) -> String {
        var escaped = ""
        for byte in text.utf8 {
            if (0x21...0x7E).contains(byte), byte != UInt8(ascii: "%") {
                escaped.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                escaped += String(format: "%%%02X", byte)
            }
        }
        return escaped
    }
}
