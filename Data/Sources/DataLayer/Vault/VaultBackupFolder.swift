import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The copies `tokens backup` keeps in a folder, each named by the UTC time it was written
/// (`vault-20261129T101500.000Z.sqlite`), so names sort by time. Other files are never touched.
public enum VaultBackupFolder {
    /// One copy: its file and when it was written.
    public struct Copy: Sendable, Equatable {
        public let path: String
        public let written: Date

        /// Its size in bytes, read now (0 when it is gone).
        public var bytes: Int { VaultBackup.size(of: path) }
    }

    /// A copy's name: `vault-` and the UTC time to the millisecond.
    public static func fileName(at date: Date) -> String {
        // Whole milliseconds first: the calendar's nanoseconds of x.123 can be 122 999 999.
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
        let (seconds, millisecond) = milliseconds.quotientAndRemainder(dividingBy: 1000)
        let whole = Date(timeIntervalSince1970: TimeInterval(millisecond < 0 ? seconds - 1 : seconds))
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: whole)
        func digits(_ value: Int?, _ count: Int) -> String {
            let text = String(value ?? 0)
            return String(repeating: "0", count: max(0, count - text.count)) + text
        }
        let day = digits(parts.year, 4) + digits(parts.month, 2) + digits(parts.day, 2)
        let time = digits(parts.hour, 2) + digits(parts.minute, 2) + digits(parts.second, 2)
        return "vault-\(day)T\(time).\(digits(Int(millisecond < 0 ? millisecond + 1000 : millisecond), 3))Z.sqlite"
    }

    /// When the copy named `name` was written; nil for any other name.
    public static func written(name: String) -> Date? {
        let bytes = Array(name.utf8)
        // "vault-" 8 digits "T" 6 digits "." 3 digits "Z.sqlite"
        guard bytes.count == 33, name.hasPrefix("vault-"), name.hasSuffix("Z.sqlite"), bytes[14] == UInt8(ascii: "T"),
            bytes[21] == UInt8(ascii: ".")
        else { return nil }
        func number(_ start: Int, _ count: Int) -> Int? {
            var value = 0
            for byte in bytes[start..<start + count] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(6, 4), let month = number(10, 2), let day = number(12, 2), let hour = number(15, 2),
            let minute = number(17, 2), let second = number(19, 2), let millisecond = number(22, 3)
        else { return nil }
        let components = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        guard components.isValidDate(in: calendar), let date = calendar.date(from: components) else { return nil }
        return date + TimeInterval(millisecond) / 1000
    }

    /// The copies in `folder`, oldest first (none when the folder is missing).
    public static func copies(in folder: String) -> [Copy] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.compactMap { name in written(name: name).map { Copy(path: folder + "/" + name, written: $0) } }
            .sorted { $0.written < $1.written }
    }

    /// Removes a copy and any file SQLite left beside it.
    public static func remove(_ copy: Copy) {
        VaultBackup.removeFiles(at: copy.path)
    }

    /// Removes what a backup interrupted before its copy counted left behind (a crash, a kill
    /// between writing and checking): `<copy name>.writing-PID` and SQLite's files beside it,
    /// where no process PID runs any more. Returns how many copies' files went. A name of any
    /// other shape, or of a writer still running, is left alone.
    @discardableResult
    public static func removeAbandoned(in folder: String) -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        var removed = 0
        for name in names {
            guard let pid = abandonedWriter(name: name), kill(pid, 0) == -1, errno == ESRCH else { continue }
            VaultBackup.removeFiles(at: folder + "/" + name)
            removed += 1
        }
        return removed
    }

    /// The writer's PID of `<copy name>.writing-PID`; nil for any other name (SQLite's files
    /// beside it included: they go with it).
    static func abandonedWriter(name: String) -> pid_t? {
        guard let marker = name.range(of: ".writing-"), written(name: String(name[..<marker.lowerBound])) != nil else { return nil }
        let digits = name[marker.upperBound...]
        guard !digits.isEmpty, digits.count <= 10, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber),
            let pid = pid_t(digits), pid > 0
        else { return nil }
        return pid
    }

    private static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()
}
