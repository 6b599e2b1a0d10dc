import Domain
import Foundation
import HTTPTypes
import OpenAPIRuntime
import Synchronization
import Testing

@testable import SyncRemoteData

/// Answers a client takes, whatever the server sends: none larger than the bound (refused as it
/// streams, never held whole), none still arriving after the deadline.
@Suite("Bounded answers")
struct BoundedTransportTests {
    /// A server that answers every request with `chunks` of `chunkSize` bytes, each made only when
    /// asked for, `length` declared; each chunk moves `clock` on by `pause`.
    struct Streaming: ClientTransport {
        let chunks: Int
        let chunkSize: Int
        let length: HTTPBody.Length
        let clock: ManualInstant
        let pause: Duration

        func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
            let (chunks, size, clock, pause) = (chunks, chunkSize, clock, pause)
            let stream = AsyncStream<HTTPBody.ByteChunk> { continuation in
                Task {
                    for _ in 0..<chunks {
                        clock.advance(by: pause)
                        continuation.yield(ArraySlice(repeating: 0x41, count: size))
                    }
                    continuation.finish()
                }
            }
            return (HTTPResponse(status: .ok), HTTPBody(stream, length: length, iterationBehavior: .single))
        }
    }

    /// A clock moved by hand.
    final class ManualInstant: Sendable {
        private let instant = Mutex(ContinuousClock.now)
        func advance(by duration: Duration) { instant.withLock { $0 += duration } }
        var now: ContinuousClock.Instant { instant.withLock { $0 } }
    }

    static func collect(_ transport: BoundedTransport) async throws -> Int {
        let request = HTTPRequest(method: .get, scheme: "https", authority: "sync.example", path: "/v1/entries")
        let (_, body) = try await transport.send(
            request, body: nil, baseURL: URL(string: "https://sync.example/v1")!, operationID: "pullEntries")
        var total = 0
        for try await chunk in try #require(body) { total += chunk.count }
        return total
    }

    @Test("a 256 MiB answer of unknown length is refused once it passes the bound")
    func tooLarge() async throws {
        let clock = ManualInstant()
        let server = Streaming(chunks: 256, chunkSize: 1 << 20, length: .unknown, clock: clock, pause: .zero)
        let transport = BoundedTransport(base: server, maxBytes: 4 << 20, deadline: .seconds(30), now: { clock.now })
        await #expect(throws: SyncError.answerTooLarge) { _ = try await Self.collect(transport) }
    }

    @Test("an answer that declares a length past the bound is refused before a byte is read")
    func declaredTooLarge() async throws {
        let clock = ManualInstant()
        let server = Streaming(chunks: 0, chunkSize: 0, length: .known(5 << 20), clock: clock, pause: .zero)
        let transport = BoundedTransport(base: server, maxBytes: 4 << 20, deadline: .seconds(30), now: { clock.now })
        await #expect(throws: SyncError.answerTooLarge) { _ = try await Self.collect(transport) }
    }

    @Test("an answer trickled a byte at a time is cut off at the deadline; one within both bounds arrives whole")
    func trickle() async throws {
        let clock = ManualInstant()
        let slow = Streaming(chunks: 100, chunkSize: 1, length: .unknown, clock: clock, pause: .seconds(1))
        let transport = BoundedTransport(base: slow, maxBytes: 4 << 20, deadline: .seconds(30), now: { clock.now })
        await #expect(throws: SyncError.timedOut) { _ = try await Self.collect(transport) }
        let fine = Streaming(chunks: 3, chunkSize: 1 << 20, length: .unknown, clock: clock, pause: .seconds(1))
        #expect(
            try await Self.collect(BoundedTransport(base: fine, maxBytes: 4 << 20, deadline: .seconds(30), now: { clock.now })) == 3 << 20)
    }
}
