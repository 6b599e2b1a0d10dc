import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A bare TCP connection to a loopback server, from a chosen loopback address (all of
/// 127.0.0.0/8 is this machine): for tests that play a client that sends half a request and
/// waits, and see whether the server closes it.
public final class RawConnection {
    private let descriptor: Int32

    /// Connects to 127.0.0.1:`port` from `source` (another address stands for another client).
    public init(port: Int, from source: String = "127.0.0.1") throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw RawConnectionError(step: "socket", code: errno) }
        var local = Self.address(source, port: 0)
        var remote = Self.address("127.0.0.1", port: port)
        let bound = withUnsafePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else {
            close(descriptor)
            throw RawConnectionError(step: "bind", code: errno)
        }
        // A send the server stops reading fails after 30 s instead of blocking for good.
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let connected = withUnsafePointer(to: &remote) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(descriptor)
            throw RawConnectionError(step: "connect", code: errno)
        }
    }

    deinit { close(descriptor) }

    /// Sends `text` as it is (a part of a request, say).
    public func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        let sent = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard sent == bytes.count else { throw RawConnectionError(step: "send", code: errno) }
    }

    /// What a send that must not block did.
    public enum Sent: Equatable {
        case bytes(Int)
        case wouldBlock
        case failed
    }

    /// Sends up to `count` filler bytes without waiting: what the socket took, or that it is full
    /// (the server is not reading), or that the connection failed (the server closed it).
    public func sendFiller(_ count: Int) -> Sent {
        let chunk = [UInt8](repeating: 0x61, count: min(count, 64 * 1024))
        let written = chunk.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
        if written > 0 { return .bytes(written) }
        return written < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) ? .wouldBlock : .failed
    }

    /// Whether the server closed the connection (an end of stream or a reset) within `seconds`;
    /// whatever it sent first is read and dropped.
    public func closedByServer(within seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let left = Int32(max(0, deadline.timeIntervalSinceNow * 1000))
            var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let polled = poll(&ready, 1, left)
            if polled < 0, errno == EINTR { continue }
            if polled <= 0 { return false }
            let read = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if read == 0 || (read < 0 && errno != EAGAIN && errno != EINTR) { return true }
        }
    }

    /// What the server sent within `seconds`, up to the end of a response head (nil if nothing came).
    public func responseHead(within seconds: Double) -> String? {
        let deadline = Date().addingTimeInterval(seconds)
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !String(decoding: received, as: UTF8.self).contains("\r\n\r\n") {
            var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let polled = poll(&ready, 1, Int32(max(0, deadline.timeIntervalSinceNow * 1000)))
            if polled < 0, errno == EINTR { continue }
            if polled <= 0 { break }
            let read = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if read <= 0 { break }
            received += buffer[0..<read]
        }
        return received.isEmpty ? nil : String(decoding: received, as: UTF8.self)
    }

    private static func address(_ text: String, port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr(text)
        return address
    }
}

/// A raw connection's system call failed.
public struct RawConnectionError: Error, CustomStringConvertible {
    public let step: String
    public let code: Int32
    public var description: String { "\(step): \(String(cString: strerror(code)))" }
}
