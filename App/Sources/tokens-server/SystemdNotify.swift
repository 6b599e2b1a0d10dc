import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// systemd's readiness protocol without its library: a datagram to the socket `NOTIFY_SOCKET`
/// names (a path, or `@name` in the abstract namespace), sent when the server listens, so a
/// `Type=notify` unit is "active" only once requests can be answered. Without the variable
/// (not under systemd) nothing is sent; a socket that cannot be reached is ignored.
enum SystemdNotify {
    static func send(_ state: String, environment: [String: String] = ProcessInfo.processInfo.environment) {
        guard let path = environment["NOTIFY_SOCKET"], !path.isEmpty, path.utf8.count < 108 else { return }
        let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(path.utf8)
        if bytes.first == UInt8(ascii: "@") { bytes[0] = 0 }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in bytes.enumerated() { buffer[index] = byte }
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count)
        let message = Array(state.utf8)
        _ = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                sendto(descriptor, message, message.count, 0, socketAddress, length)
            }
        }
    }
}
