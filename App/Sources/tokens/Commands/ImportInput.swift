import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What `import` (and `add --qr`) reads: a file or standard input, refused before it is read whole when it is
/// over the size limit, and a file that cannot be read says why.
enum ImportInput {
    /// `limit` names the limit in the error of a file over it.
    static func read(_ file: String, maxSize: Int, limit name: String = "the import limit (raise it with --max-size)") throws -> Data {
        let limit = maxSize * 1_048_576
        let tooLarge = CLIError("\(file == "-" ? "standard input" : file) is larger than \(maxSize) MiB, \(name)")
        guard file != "-" else {
            var data = Data()
            while let chunk = try FileHandle.standardInput.read(upToCount: 1 << 20), !chunk.isEmpty {
                data.append(chunk)
                if data.count > limit { throw tooLarge }
            }
            return data
        }
        var status = stat()
        guard stat(file, &status) == 0 else { throw CLIError("cannot read \(file): \(reason(errno))") }
        guard status.st_mode & S_IFMT != S_IFDIR else { throw CLIError("cannot read \(file): it is a folder, not a file") }
        if status.st_mode & S_IFMT == S_IFREG, Int(status.st_size) > limit { throw tooLarge }
        let descriptor = open(file, O_RDONLY)
        guard descriptor >= 0 else { throw CLIError("cannot read \(file): \(reason(errno))") }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        var data = Data()
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            data.append(chunk)
            if data.count > limit { throw tooLarge }
        }
        return data
    }

    /// errno in words a user acts on.
    static func reason(_ code: Int32) -> String {
        switch code {
        case ENOENT: "no such file"
        case EACCES, EPERM: "permission denied"
        case ENOTDIR: "a part of the path is not a folder"
        case ELOOP: "too many symbolic links"
        default: String(cString: strerror(code)).lowercased()
        }
    }
}
