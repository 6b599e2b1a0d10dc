import Foundation
import OpenAPIRuntime
import Testing

@testable import SyncServerHTTP

/// `WireDates` writes every date exactly as the runtime's ISO 8601 transcoder does.
@Suite("Wire dates")
struct WireDatesTests {
    static let reference = ISO8601DateTranscoder.iso8601

    @Test(
        "edges: the epoch and a second before it, leap days and centuries, fractions of a second, the first and last second of years 1 and 9999, and beyond",
        arguments: [
            0, -1, -0.5, 0.999_999, 1.5, 951_782_400, 951_868_799.75, -2_203_891_200, 4_107_542_399, 1_795_904_704.123,
            -62_135_596_800, -62_135_596_801, 253_402_300_799.9, 253_402_300_800, 1e12, -1e12,
        ] as [TimeInterval])
    func edges(_ seconds: TimeInterval) throws {
        let date = Date(timeIntervalSince1970: seconds)
        #expect(try WireDates().encode(date) == Self.reference.encode(date))
    }

    @Test("20 000 dates spread over years 1 to 9999, each with a fraction of a second: the same text")
    func spread() throws {
        let first: TimeInterval = -62_135_596_800
        let step: TimeInterval = 15_778_463.37  // about six months, never a whole number of days
        for index in 0..<20_000 {
            let date = Date(timeIntervalSince1970: first + Double(index) * step)
            let ours = try WireDates().encode(date)
            let theirs = try Self.reference.encode(date)
            guard ours == theirs else {
                Issue.record("\(date.timeIntervalSince1970): \(ours) != \(theirs)")
                return
            }
        }
    }

    @Test("reading is the runtime's: what it writes reads back to the second")
    func reading() throws {
        let date = Date(timeIntervalSince1970: 1_795_904_704)
        #expect(try WireDates().decode(WireDates().encode(date)) == date)
        #expect(throws: (any Error).self) { try WireDates().decode("24/11/2026") }
    }
}
