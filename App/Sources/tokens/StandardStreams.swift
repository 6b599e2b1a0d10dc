#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Whole lines written straight to standard output or standard error, unbuffered.
/// (`print` takes `Any` and casts it at run time, a lookup the quick `code` path does without;
/// its one line is all that path prints.)
enum StandardStreams {
    static func writeLine(_ line: String) { write(line + "\n", to: STDOUT_FILENO) }

    static func writeErrorLine(_ line: String) { write(line + "\n", to: STDERR_FILENO) }

    private static func write(_ text: String, to descriptor: Int32) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { buffer in
                #if canImport(Glibc)
                    Glibc.write(descriptor, buffer.baseAddress, buffer.count)
                #else
                    Darwin.write(descriptor, buffer.baseAddress, buffer.count)
                #endif
            }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return }
            bytes = bytes.dropFirst(written)
        }
    }
}
