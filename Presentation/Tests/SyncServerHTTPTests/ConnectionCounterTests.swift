import SyncServerHTTP
import Testing

/// The connection caps: per address, in all, trusted proxies not counted, a closed
/// connection makes room, and refusals are reported at most once per interval with their count.
@Suite("Connection counter")
struct ConnectionCounterTests {
    @Test("a cap per address and one in all; a proxy is held only to the total; closing makes room")
    func caps() {
        let counter = ConnectionCounter(limits: ConnectionLimits(maxConnections: 5, maxPerAddress: 2, unlimitedAddresses: ["10.0.0.1"]))
        #expect(counter.open(from: "192.0.2.1") == nil && counter.open(from: "192.0.2.1") == nil)
        #expect(counter.open(from: "192.0.2.1") == .tooManyFromAddress(limit: 2))
        #expect(counter.open(from: "10.0.0.1") == nil && counter.open(from: "10.0.0.1") == nil && counter.open(from: "10.0.0.1") == nil)
        #expect(counter.openCount == 5)
        #expect(counter.open(from: "192.0.2.9") == .tooManyInAll(limit: 5))
        counter.close(from: "192.0.2.1")
        #expect(counter.open(from: "192.0.2.1") == nil)
        counter.close(from: "10.0.0.1")
        #expect(counter.open(from: nil) == nil && counter.openCount == 5)
    }

    @Test("refusals are reported once per interval, with how many there were")
    func reports() {
        let counter = ConnectionCounter(limits: ConnectionLimits(maxConnections: 1, maxPerAddress: 1))
        let start = ContinuousClock.Instant.now
        #expect(counter.refusalsToReport(now: start, interval: .seconds(10)) == nil, "nothing refused yet")
        _ = counter.open(from: "192.0.2.1")
        for _ in 0..<3 { _ = counter.open(from: "192.0.2.2") }
        #expect(counter.refusalsToReport(now: start, interval: .seconds(10)) == 3)
        _ = counter.open(from: "192.0.2.2")
        #expect(counter.refusalsToReport(now: start + .seconds(9), interval: .seconds(10)) == nil)
        #expect(counter.refusalsToReport(now: start + .seconds(10), interval: .seconds(10)) == 1)
    }
}
