import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Lines of a text file found on its bytes through one pointer scan: iterating `Data` byte by
/// byte in Swift checks exclusive access at every byte (a 60 MiB line took a second).
enum ByteLines {
    /// A line: its number from 1, and its bytes from the first that is not white space.
    struct Line {
        let number: Int
        let bytes: Data
    }

    /// Every line, blank ones included (empty `bytes`), split at LF, CR or CR LF.
    static func all(of data: Data) -> [Line] {
        let ranges: [(Int, Range<Int>)] = data.withUnsafeBytes { buffer in
            var result: [(Int, Range<Int>)] = []
            var index = 0
            var number = 0
            while index < buffer.count {
                var end = index
                while end < buffer.count, buffer[end] != 0x0A, buffer[end] != 0x0D { end += 1 }
                var start = index
                while start < end, isWhitespace(buffer[start]) { start += 1 }
                number += 1
                result.append((number, start..<end))
                index = end + (end + 1 < buffer.count && buffer[end] == 0x0D && buffer[end + 1] == 0x0A ? 2 : 1)
            }
            return result
        }
        let base = data.startIndex
        return ranges.map { Line(number: $0.0, bytes: data[base + $0.1.lowerBound..<base + $0.1.upperBound]) }
    }

    /// The lines that hold something: blank lines and `#` comments left out.
    static func content(of data: Data) -> [Data] {
        all(of: data).map(\.bytes).filter { !$0.isEmpty && $0.first != UInt8(ascii: "#") }
    }

    /// Whether `data` contains the bytes of `needle` (memchr for its first byte, then memcmp).
    static func contains(_ data: Data, _ needle: String) -> Bool {
        let needle = Array(needle.utf8)
        return data.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress, let first = needle.first, buffer.count >= needle.count else { return false }
            var offset = 0
            while offset + needle.count <= buffer.count {
                guard let hit = memchr(base + offset, Int32(first), buffer.count - needle.count - offset + 1) else { return false }
                if memcmp(hit, needle, needle.count) == 0 { return true }
                offset = base.distance(to: UnsafeRawPointer(hit)) + 1
            }
            return false
        }
    }

    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || (0x09...0x0D).contains(byte)
    }
}
