#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The process's environment variables, read once. Foundation's
/// `ProcessInfo.processInfo.environment` builds a new dictionary at every call and finds each
/// `=` by a generic search: twice per command, a tenth of a millisecond of every start.
enum ProcessEnvironment {
    static let variables: [String: String] = read()

    /// `environ`'s entries split at their first `=`; for a name given twice, the first (as getenv).
    private static func read() -> [String: String] {
        var variables: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self), count: strlen(pointer))
            if let equals = bytes.firstIndex(of: UInt8(ascii: "=")) {
                let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[..<equals]), as: UTF8.self)
                if variables[name] == nil {
                    variables[name] = String(decoding: UnsafeBufferPointer(rebasing: bytes[(equals + 1)...]), as: UTF8.self)
                }
            }
            entry += 1
        }
        return variables
    }
}
