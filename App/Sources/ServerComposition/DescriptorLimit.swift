#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The process's limit on open descriptors, which bounds the connections the server can keep.
enum DescriptorLimit {
    /// Descriptors kept back from connections: the listener, the database pool, logs, files.
    static let reserve = 128

    /// Raises the soft limit to the hard one (start-up does it once) and returns the soft limit
    /// now in force; nil when the system does not say.
    static func raised() -> Int? {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return nil }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        // RLIM_INFINITY is all ones: clamped, it is Int.max.
        return Int(clamping: limit.rlim_cur)
    }

    /// The connections the server may keep: the configured number, or fewer when the descriptor
    /// limit (less the reserve) is lower.
    static func connections(configured: Int, limit: Int?) -> Int {
        guard let limit else { return configured }
        return max(1, min(configured, limit - reserve))
    }
}
