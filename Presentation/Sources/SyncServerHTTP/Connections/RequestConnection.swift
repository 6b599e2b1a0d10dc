import NIOCore

/// The connection of the request being handled, for handlers that wait: a long-poll whose client
/// has gone ends at once instead of holding its connection and descriptor until its wait is over.
enum RequestConnection {
    /// Completes when the connection closes (nil outside a request).
    @TaskLocal static var closed: EventLoopFuture<Void>?

    /// Runs `body`, cancelled as soon as the request's connection closes.
    static func cancellingWhenClosed<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
        guard let closed else { return try await body() }
        let task = Task { try await body() }
        closed.whenComplete { _ in task.cancel() }
        return try await withTaskCancellationHandler {
            try await task.value
        } onCancel: {
            task.cancel()
        }
    }
}
