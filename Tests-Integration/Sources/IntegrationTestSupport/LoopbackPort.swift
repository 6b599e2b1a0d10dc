#if canImport(Glibc)
    import Glibc
#endif

/// Loopback ports for servers a test starts.
public enum LoopbackPort {
    /// A port nothing listens on now: the one the kernel gave a socket bound to port 0, closed
    /// again (another process could take it meanwhile; none of ours picks ports this way).
    public static func free() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard bound else { throw LoopbackPortError() }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// No loopback port could be bound.
public struct LoopbackPortError: Error {}
