import Foundation
import SyncServer
import Testing

/// Long-polls held to a few per device (more refused) and a cap in all (more answer at once).
@Suite("Waiting pulls")
struct WaitingPullsTests {
    @Test("a device keeps its limit waiting, more are refused; past the cap in all, pulls answer at once; leaving makes room")
    func limits() {
        var limits = SyncLimits()
        limits.waitingPullsPerDevice = 2
        limits.waitingPulls = 3
        let waiting = WaitingPulls(limits: limits)
        let (a, b, c) = (DeviceID(UUID()), DeviceID(UUID()), DeviceID(UUID()))
        #expect(waiting.enter(a) == .wait && waiting.enter(a) == .wait)
        #expect(waiting.enter(a) == .refuse)
        #expect(waiting.enter(b) == .wait)
        #expect(waiting.enter(c) == .answerNow && waiting.count == 3)
        waiting.leave(a)
        #expect(waiting.enter(c) == .wait && waiting.enter(a) == .answerNow)
        waiting.leave(b)
        #expect(waiting.enter(a) == .wait && waiting.count == 3)
    }
}
