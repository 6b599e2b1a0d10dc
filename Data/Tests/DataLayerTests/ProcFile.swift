import Foundation

/// A file of Linux's /proc read to its end. The kernel writes such a file as it is read and gives
/// its size as 0, and `String(contentsOfFile:)` stops short of the end of a long one (a test
/// process's /proc/self/maps, hundreds of lines).
enum ProcFile {
    /// The text of the file at `path`; nil where it cannot be opened.
    static func text(_ path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        var bytes = Data()
        while let chunk = try? handle.read(upToCount: 1 << 16), !chunk.isEmpty { bytes.append(chunk) }
        return String(decoding: bytes, as: UTF8.self)
    }
}
