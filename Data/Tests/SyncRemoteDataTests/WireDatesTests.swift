import Foundation
import OpenAPIRuntime
import Testing

@testable import SyncRemoteData

/// `WireDates` reads every date exactly as the runtime's ISO 8601 transcoder does, by hand for
/// the server's own form and through the runtime for anything else.
@Suite("Wire dates on the client")
struct WireDatesTests {
    static let reference = ISO8601DateTranscoder.iso8601

    @Test("20 000 whole seconds over years 1583 to 9999, as the server writes them: read by hand, to the same date")
    func spread() throws {
        let first: TimeInterval = -12_212_553_600  // 1583-01-01T00:00:00Z
        let step: TimeInterval = 13_270_007  // about five months, never a whole number of days
        for index in 0..<20_000 {
            let text = try Self.reference.encode(Date(timeIntervalSince1970: first + Double(index) * step))
            guard WireDates.seconds(text) != nil, try WireDates().decode(text) == Self.reference.decode(text) else {
                Issue.record("\(text): \(String(describing: WireDates.seconds(text))) by hand, \(try Self.reference.decode(text))")
                return
            }
        }
    }

    @Test(
        "edges and other forms: the same date as the runtime's, or an error where it gives one",
        arguments: [
            ("1970-01-01T00:00:00Z", true), ("2024-02-29T23:59:59Z", true), ("2000-02-29T12:00:00Z", true),
            ("1583-01-01T00:00:00Z", true), ("9999-12-31T23:59:59Z", true), ("2026-11-24T22:11:44Z", true),
            ("1900-02-29T00:00:00Z", false), ("2023-02-29T00:00:00Z", false), ("2026-04-31T00:00:00Z", false),
            ("2026-13-01T00:00:00Z", false), ("2026-00-10T00:00:00Z", false), ("2026-11-00T00:00:00Z", false),
            ("2026-11-24T24:00:00Z", false), ("2026-11-24T23:60:00Z", false), ("2026-11-24T23:59:60Z", false),
            ("1582-10-15T00:00:00Z", false), ("0001-01-01T00:00:00Z", false), ("2026-11-24T22:11:44.5Z", false),
            ("2026-11-24T22:11:44+01:00", false), ("2026-11-24t22:11:44z", false), ("2026-11-24 22:11:44Z", false),
            ("+026-11-24T22:11:44Z", false), ("2026-1-24T22:11:44Z", false), ("2026-11-24T22:11:4Z", false),
            ("２０２６-11-24T22:11:44Z", false), ("", false), ("24/11/2026", false),
        ])
    func edges(_ text: String, byHand: Bool) {
        #expect((WireDates.seconds(text) != nil) == byHand)
        let ours = try? WireDates().decode(text)
        let theirs = try? Self.reference.decode(text)
        #expect(ours == theirs, "\(text)")
    }

    @Test("writing is the runtime's")
    func writing() throws {
        let date = Date(timeIntervalSince1970: 1_795_904_704.25)
        #expect(try WireDates().encode(date) == Self.reference.encode(date))
    }
}
