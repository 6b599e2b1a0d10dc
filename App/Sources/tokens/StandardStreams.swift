#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Text written straight to standard output or standard error, unbuffered: everything tokens
/// prints goes through here. (`print` takes `Any` and casts each item at run time; a cast of a
/// type not seen before makes the Swift runtime scan every protocol conformance in the binary,
/// about 0.1 ms each in a one-shot command.)
enum StandardStreams {
    static func writeLine(_ line: String) { write(line + "\n") }

    /// Writes `text` as it is (a prompt, or text that ends with its own newline).
    static func write(_ text: String) { write(text, to: STDOUT_FILENO) }

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
