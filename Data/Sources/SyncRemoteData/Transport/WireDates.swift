import Foundation
import OpenAPIRuntime

/// The API's dates read as the server writes them (RFC 3339 in UTC, whole seconds:
/// `2026-11-24T22:11:44Z`), by arithmetic: the runtime's transcoder takes a lock and ICU's
/// formatter for each date, a fifth of a join of 10 000 accounts (each pulled entry has its
/// `changedAt`). Anything else (another offset, a fraction, a field out of range, a year before
/// 1583, where ICU's calendar is Julian) goes to the runtime's transcoder, as does writing: the
/// client sends no dates. The server's `WireDates` is the writing half.
struct WireDates: DateTranscoder {
    private static let fallback = ISO8601DateTranscoder.iso8601
    private static let separators: [(offset: Int, byte: UInt8)] = [
        (4, UInt8(ascii: "-")), (7, UInt8(ascii: "-")), (10, UInt8(ascii: "T")), (13, UInt8(ascii: ":")), (16, UInt8(ascii: ":")),
        (19, UInt8(ascii: "Z")),
    ]

    func encode(_ date: Date) throws -> String {
        try Self.fallback.encode(date)
    }

    func decode(_ string: String) throws -> Date {
        if let seconds = Self.seconds(string) { return Date(timeIntervalSince1970: TimeInterval(seconds)) }
        return try Self.fallback.decode(string)
    }

    /// Seconds since 1970 for `YYYY-MM-DDTHH:MM:SSZ` with every field in range; nil otherwise.
    static func seconds(_ string: String) -> Int64? {
        let text = Array(string.utf8)
        guard text.count == 20 else { return nil }
        guard separators.allSatisfy({ text[$0.offset] == $0.byte }) else { return nil }
        func number(_ start: Int, _ count: Int) -> Int64? {
            var value: Int64 = 0
            for byte in text[start..<start + count] {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int64(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2), let hour = number(11, 2),
            let minute = number(14, 2), let second = number(17, 2),
            year >= 1583, (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year), hour < 24, minute < 60,
            second < 60
        else { return nil }
        return days(year: year, month: month, day: day) * 86_400 + hour * 3_600 + minute * 60 + second
    }

    static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 of a (proleptic) Gregorian date (Howard Hinnant's
    /// `days_from_civil`; years here are positive).
    static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = shiftedYear / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}

extension Configuration {
    /// How the generated client reads and writes the API: dates by `WireDates`.
    static let wire = Configuration(dateTranscoder: WireDates())
}
