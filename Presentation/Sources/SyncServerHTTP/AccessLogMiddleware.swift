import Foundation
import Hummingbird
import Logging

/// A line per request once it is answered: method, route template (never a path with ids),
/// status, duration and the client's address (through trusted proxies, as the rate limits see
/// it), at info, or at debug when the operator turned the access log off; and at debug a line
/// when it arrives, with its path. Never headers or bodies: they hold tokens, keys and
/// ciphertext. The path comes from the network, so anything but printable ASCII in it is
/// percent-escaped before it reaches a log (and an operator's terminal).
struct AccessLogMiddleware: RouterMiddleware {
    typealias Context = SyncRequestContext

    let clientAddress: ClientAddress
    /// Whether the answered line is at info (else at debug).
    let enabled: Bool

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        context.logger.debug(
            "request", metadata: ["method": "\(request.method.rawValue)", "path": "\(Self.printable(request.uri.description))"])
        do {
            let response = try await next(request, context)
            answered(request, context: context, status: response.status.code, since: start)
            return response
        } catch {
            answered(request, context: context, status: (error as? any HTTPResponseError)?.status.code ?? 500, since: start)
            throw error
        }
    }

    private func answered(_ request: Request, context: Context, status: Int, since start: ContinuousClock.Instant) {
        let elapsed = start.duration(to: .now).components
        // Tenths of a millisecond, written without Foundation's formatter (a line per request).
        let tenths = elapsed.seconds * 10_000 + (elapsed.attoseconds + 50_000_000_000_000) / 100_000_000_000_000
        let forwarded = request.headers[values: RequestLimitsMiddleware.forwardedFor]
        let client = clientAddress.resolve(peer: context.address, forwardedFor: forwarded)
        context.logger.log(
            level: enabled ? .info : .debug, "answered",
            metadata: [
                "method": "\(request.method.rawValue)", "route": "\(Self.printable(context.endpointPath ?? "unmatched"))",
                "status": "\(status)", "ms": "\(tenths / 10).\(tenths % 10)", "client": "\(client ?? "unknown")",
            ])
    }

    /// `text` with every byte outside printable ASCII (and `%` itself) as `%XX`.
    static func printable(_ text: String) -> String {
        if text.utf8.allSatisfy(isPlain) { return text }
        var escaped = ""
        for byte in text.utf8 {
            if isPlain(byte) {
                escaped.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                escaped += String(format: "%%%02X", byte)
            }
        }
        return escaped
    }

    /// Printable ASCII other than `%`: written to the log as it is.
    private static func isPlain(_ byte: UInt8) -> Bool { (0x21...0x7E).contains(byte) && byte != UInt8(ascii: "%") }
}
