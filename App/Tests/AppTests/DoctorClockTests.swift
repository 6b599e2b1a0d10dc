import AppComposition
import AppConfiguration
import Domain
import Foundation
import Testing

/// `tokens doctor`'s clock line: what the kernel says and what the last sync measured, a warning
/// only for an offset beyond `clock.warn`.
@Suite("Doctor: the clock")
struct DoctorClockTests {
    static let now = Date(timeIntervalSince1970: 1_795_953_600)

    static func settings(_ offset: ClockSettings.CodesOffset = .seconds(0)) -> AppSettings {
        AppSettings(
            phase: Sourced(.real, from: .default), logLevel: Sourced(.info, from: .default),
            clock: ClockSettings(codesOffset: Sourced(offset, from: .default)), configFile: "/x", configFileExists: false)
    }

    static func measured(_ seconds: TimeInterval) -> ClockOffset {
        ClockOffset(seconds: seconds, uncertainty: 0.6, measuredAt: now - 180)
    }

    @Test("synchronised and within the limit: ok; never measured: ok when synchronised, off when the kernel does not say")
    func withinLimit() {
        let fine = DoctorComposer.clock(
            measured: Self.measured(0.3), timeSync: .synchronized(estimatedError: 0.002), settings: Self.settings(), now: Self.now)
        #expect(fine.status == .ok)
        #expect(
            fine.detail
                == "kept in time by the system (estimated error 0.002 s); agrees with the sync server's, within 0.6 s, measured 3 min ago")
        let early = DoctorComposer.clock(
            measured: nil, timeSync: .synchronized(estimatedError: 0.002), settings: Self.settings(), now: Self.now)
        #expect(early.status == .ok && early.detail.hasSuffix("not measured against a sync server yet (each sync measures it)"))
        // A virtual machine's clock is often kept by its host: unsynchronised alone is no warning.
        #expect(DoctorComposer.clock(measured: nil, timeSync: .unsynchronized, settings: Self.settings(), now: Self.now).status == .off)
        #expect(
            DoctorComposer.clock(measured: Self.measured(-2), timeSync: .unknown, settings: Self.settings(), now: Self.now).status == .ok)
    }

    @Test("beyond clock.warn: a warning with what to do; under auto it says codes are corrected and does not suggest it")
    func beyondLimit() {
        let off = DoctorComposer.clock(measured: Self.measured(63), timeSync: .unsynchronized, settings: Self.settings(), now: Self.now)
        #expect(off.status == .warn)
        #expect(off.detail.contains("; 63 s behind the sync server's, within 0.6 s, measured 3 min ago; "))
        #expect(
            off.detail.hasSuffix("turn on time sync (chrony, or systemd-timesyncd: timedatectl set-ntp true), or set codes.offset to auto"))
        let corrected = DoctorComposer.clock(
            measured: Self.measured(-63), timeSync: .unknown, settings: Self.settings(.auto), now: Self.now)
        #expect(corrected.status == .warn)
        #expect(corrected.detail.contains("63 s ahead of the sync server's"))
        #expect(corrected.detail.contains("codes are computed at the server's time (codes.offset auto)"))
        #expect(!corrected.detail.contains("set codes.offset to auto"))
    }

    @Test("the server: how fast it answered and its version, its time measuring the clock afresh; or why it cannot be reached")
    func server() async {
        let membership = SyncMembership(
            code: SyncCode(account: UUID(), key: SyncKey(bytes: Array(repeating: 7, count: 32))!),
            server: URL(string: "https://sync.example.com")!, enrolment: SyncEnrolment(deviceID: UUID(), token: [1]))
        let sample = ServerTimeSample(sent: Self.now, received: Self.now + 0.012, serverDate: Self.now + 120)
        let (answered, fresh) = await DoctorComposer.reach(membership) { _ in
            .success(SyncServerHealthReport(time: sample, version: "0.1.0"))
        }
        #expect(answered == HealthCheck("server", .ok, "https://sync.example.com answered in 12 ms, tokens-server 0.1.0"))
        #expect(fresh == sample.offset)
        let (hostile, _) = await DoctorComposer.reach(membership) { _ in
            .success(SyncServerHealthReport(time: sample, version: "1.0\u{1B}[2J\u{202E}\u{9B}" + String(repeating: "9", count: 100)))
        }
        #expect(hostile.detail == "https://sync.example.com answered in 12 ms, tokens-server 1.0[2J" + String(repeating: "9", count: 34))
        let (refused, none) = await DoctorComposer.reach(membership) { _ in .failure(.timedOut) }
        #expect(refused.status == .fail && refused.detail.hasPrefix("https://sync.example.com: ") && none == nil)
    }
}
