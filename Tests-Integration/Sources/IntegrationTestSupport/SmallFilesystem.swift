import Foundation
import ProcessKit

/// A filesystem of a few megabytes (tmpfs) that a test can fill, for a real "no space left on
/// device": mounted on a fresh directory under /tmp, owned by `postgres` so a tablespace can live
/// on it. Mounting needs root (CI runs as root); `init` throws with the reason otherwise. The
/// filesystem is unmounted and its directory removed when released.
public final class SmallFilesystem: Sendable {
    public let path: String

    public init(megabytes: Int) throws {
        path = "/tmp/small-filesystem-\(UUID())"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        let mounted = try ProcessRunner.run("mount", ["-t", "tmpfs", "-o", "size=\(megabytes)m,mode=0700", "tmpfs", path], timeout: 30)
        guard mounted.status == 0 else {
            try? FileManager.default.removeItem(atPath: path)
            throw SmallFilesystemError(message: "cannot mount a small filesystem (needs root): \(mounted.stderr)")
        }
        _ = try ProcessRunner.run("chown", ["postgres:", path], timeout: 30)
    }

    /// Makes room: the same filesystem, `megabytes` large, its files kept.
    public func grow(to megabytes: Int) throws {
        let grown = try ProcessRunner.run("mount", ["-o", "remount,size=\(megabytes)m", path], timeout: 30)
        guard grown.status == 0 else { throw SmallFilesystemError(message: "cannot grow \(path): \(grown.stderr)") }
    }

    deinit {
        _ = try? ProcessRunner.run("umount", ["--lazy", path], timeout: 30)
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// mount failed; what it said.
public struct SmallFilesystemError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}
