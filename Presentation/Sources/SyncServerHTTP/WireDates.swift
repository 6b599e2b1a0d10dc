import Foundation
import OpenAPIRuntime

/// The API's dates as the runtime's ISO 8601 transcoder writes them (RFC 3339 in UTC, whole
/// seconds: `2026-11-24T22:11:44Z`), written by arithmetic instead: the runtime's transcoder takes
/// a lock and ICU's formatter for each date, which made a pull of 20 entries spend a tenth of its
/// time on dates. Reading, and dates outside years 1583…9999, go to the runtime's transcoder.
struct WireDates: DateTranscoder {
    private static let fallback = ISO8601DateTranscoder.iso8601

    func encode(_ date: Date) throws -> String {
        // As the formatter does: the date to the nearest millisecond, then its whole second.
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        // From 1583 (ICU's calendar is Julian before October 1582) to 9999 (a 4-digit year).
        guard milliseconds >= -12_212_553_600_000, milliseconds < 253_402_300_800_000 else { return try Self.fallback.encode(date) }
        let seconds = Int64((milliseconds / 1000).rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let time = seconds - days * 86_400
        let (year, month, day) = Self.civil(days)
        var text = [UInt8]()
        text.reserveCapacity(20)
        Self.append(year, width: 4, to: &text)
        text.append(UInt8(ascii: "-"))
        Self.append(month, width: 2, to: &text)
        text.append(UInt8(ascii: "-"))
        Self.append(day, width: 2, to: &text)
        text.append(UInt8(ascii: "T"))
        Self.append(time / 3600, width: 2, to: &text)
        text.append(UInt8(ascii: ":"))
        Self.append(time % 3600 / 60, width: 2, to: &text)
        text.append(UInt8(ascii: ":"))
        Self.append(time % 60, width: 2, to: &text)
        text.append(UInt8(ascii: "Z"))
        return String(decoding: text, as: UTF8.self)
    }

    func decode(_ string: String) throws -> Date {
        try Self.fallback.decode(string)
    }

    /// Year, month and day of the (proleptic) Gregorian calendar for days since 1970-01-01
    /// (Howard Hinnant's `civil_from_days`).
    static func civil(_ days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func append(_ value: Int64, width: Int, to text: inout [UInt8]) {
        var digits = [UInt8](repeating: UInt8(ascii: "0"), count: width)
        var rest = value
        for index in stride(from: width - 1, through: 0, by: -1) {
            digits[index] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        }
        text.append(contentsOf: digits)
    }
}
