import Domain
import Foundation
import HTTPTypes
import OpenAPIRuntime

/// A transport whose answers are bounded, whatever the server does: a body past `maxBytes` is
/// refused as it streams in (never held whole: `SyncError.answerTooLarge`), and an answer still
/// arriving `deadline` after its request was sent is cut off, however slowly the server trickles
/// it (`SyncError.timedOut`). The transport below bounds the wait for each read on its own.
struct BoundedTransport: ClientTransport {
    let base: any ClientTransport
    let maxBytes: Int
    let deadline: Duration
    /// The clock the deadline is read on (tests move it by hand).
    let now: @Sendable () -> ContinuousClock.Instant

    init(
        base: any ClientTransport, maxBytes: Int, deadline: Duration,
        now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }
    ) {
        self.base = base
        self.maxBytes = maxBytes
        self.deadline = deadline
        self.now = now
    }

    func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        let ends = now() + deadline
        let (response, answer) = try await base.send(request, body: body, baseURL: baseURL, operationID: operationID)
        guard let answer else { return (response, nil) }
        if case .known(let length) = answer.length, length > maxBytes { throw SyncError.answerTooLarge }
        let bounded = BoundedBody(body: answer, maxBytes: maxBytes, ends: ends, now: now)
        return (response, HTTPBody(bounded, length: answer.length, iterationBehavior: answer.iterationBehavior))
    }
}

/// An answer's chunks, counted and timed as they arrive.
struct BoundedBody: AsyncSequence, Sendable {
    typealias Element = HTTPBody.ByteChunk

    let body: HTTPBody
    let maxBytes: Int
    let ends: ContinuousClock.Instant
    let now: @Sendable () -> ContinuousClock.Instant

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: HTTPBody.AsyncIterator
        var remaining: Int
        let ends: ContinuousClock.Instant
        let now: @Sendable () -> ContinuousClock.Instant

        mutating func next() async throws -> HTTPBody.ByteChunk? {
            guard let chunk = try await base.next() else { return nil }
            remaining -= chunk.count
            if remaining < 0 { throw SyncError.answerTooLarge }
            if now() > ends { throw SyncError.timedOut }
            return chunk
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: body.makeAsyncIterator(), remaining: maxBytes, ends: ends, now: now)
    }
}
