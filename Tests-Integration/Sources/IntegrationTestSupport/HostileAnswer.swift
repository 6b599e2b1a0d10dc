import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// What a hostile sync server answers every request with (FaultProxy's `answer` mode): the
/// client's bounds (pages per sync, bytes per answer, time per request) are what must end it.
public enum HostileAnswer: Sendable {
    /// A page with no entries that says more follow.
    case emptyPagesForever
    /// A page with no entries whose head moves one further each time, and that says more follow.
    case progressingPagesForever
    /// An answer of this many MiB of whitespace, of no stated length, then the connection closed.
    case huge(megabytes: Int)
    /// A page that says it is long, sent one byte each `milliseconds`, never finished.
    case trickle(milliseconds: Int)

    /// Writes the answer to the `answered`th request on `socket`; false once the connection is
    /// done with (closed by either side).
    func write(to socket: Int32, answered: Int) -> Bool {
        switch self {
        case .emptyPagesForever: return Self.send(Self.page(head: 1_000_000), to: socket)
        case .progressingPagesForever: return Self.send(Self.page(head: 1_000_000 + answered), to: socket)
        case .huge(let megabytes):
            guard Self.send(Array("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n".utf8), to: socket) else {
                return false
            }
            let chunk = [UInt8](repeating: UInt8(ascii: " "), count: 1 << 20)
            for _ in 0..<megabytes where Self.send(chunk, to: socket) {}
            return false
        case .trickle(let milliseconds):
            for byte in Array("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n[".utf8) {
                guard Self.send([byte], to: socket) else { return false }
                usleep(UInt32(milliseconds) * 1_000)
            }
            while Self.send([UInt8(ascii: " ")], to: socket) { usleep(UInt32(milliseconds) * 1_000) }
            return false
        }
    }

    private static func page(head: Int) -> [UInt8] {
        let body = #"{"entries":[],"head":\#(head),"serverTime":"2026-11-27T00:00:00Z","hasMore":true}"#
        return Array("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)".utf8)
    }

    /// All of `bytes`, without SIGPIPE when the peer has gone; false if it could not.
    private static func send(_ bytes: [UInt8], to socket: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { return false }
            offset += sent
        }
        return true
    }
}
