import Foundation
import SyncServer
import Testing

/// Long-polls held to a few per device (more refused) and a cap in all (more answer at once).
@Suite("Waiting pulls")
struct WaitingPullsTests {
    @Test("a device keeps its limit waiting, more are refused; past the cap in all, pulls answer at once; leaving makes room")
    func limits() async {
        var limits = SyncLimits()
        limits.waitingPullsPerDevice = 2
        limits.waitingPulls = 3
        let waiting = WaitingPulls(limits: limits)
        let (a, b, c) = (DeviceID(UUID()), DeviceID(UUID()), DeviceID(UUID()))
        var admissions: [WaitingPulls.Admission] = []
        for device in [a, a, a, b, c] { admissions.append(await waiting.enter(device)) }
        #expect(admissions == [.wait, .wait, .refuse, .wait, .answerNow])
        #expect(await waiting.count == 3)
        await waiting.leave(a)
        let (third, fourth) = (await waiting.enter(c), await waiting.enter(a))
        #expect(third == .wait && fourth == .answerNow)
        await waiting.leave(b)
        #expect(await waiting.enter(a) == .wait)
        #expect(await waiting.count == 3)
    }
}
