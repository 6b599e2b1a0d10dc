import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A TCP proxy on a free loopback port in front of a server a test started, that fails the way
/// networks do, chosen at any moment (each chunk of bytes looks at the current mode, so pooled
/// connections are affected too): `pass` forwards both ways; `dropAnswers` forwards requests
/// but cuts the connection when the answer comes back (the server did the work, the client
/// never hears of it); `partition` forwards nothing and answers nothing; `slow` forwards each
/// chunk after a delay; `answer` forwards nothing and answers every request itself, as a
/// hostile server would (HostileAnswer). Threads and blocking sockets, all ended by `stop()`
/// (and at release).
public final class FaultProxy: Sendable {
    public enum Mode: Sendable {
        case pass
        case dropAnswers
        case partition
        /// Each chunk, either way, after this many milliseconds.
        case slow(milliseconds: Int)
        /// Every request answered by the proxy itself, never forwarded.
        case answer(HostileAnswer)
    }

    public let port: Int
    private let target: Int
    private let listener: Int32
    private let state = Mutex<(mode: Mode, stopped: Bool, descriptors: Set<Int32>, answered: Int)>((.pass, false, [], 0))

    public var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Listens on a free loopback port, forwarding to `target` on loopback.
    public init(target: Int) throws {
        self.target = target
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = Self.loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let listening = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && listen(descriptor, 64) == 0 && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard listening else {
            close(descriptor)
            throw LoopbackPortError()
        }
        listener = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    deinit { stop() }

    /// How the proxy treats the bytes from now on.
    public func set(_ mode: Mode) {
        state.withLock { $0.mode = mode }
    }

    /// Stops listening and cuts every connection.
    public func stop() {
        state.withLock { state in
            guard !state.stopped else { return }
            state.stopped = true
            shutdown(listener, Int32(SHUT_RDWR))
            for descriptor in state.descriptors { shutdown(descriptor, Int32(SHUT_RDWR)) }
        }
    }

    private var mode: Mode { state.withLock { $0.mode } }

    private func acceptLoop() {
        defer { close(listener) }
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else {
                if state.withLock({ $0.stopped }) { return }
                usleep(1_000)
                continue
            }
            let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = Self.loopback(port: target)
            let connected = withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
                }
            }
            let tracked = state.withLock { state -> Bool in
                guard !state.stopped, connected else { return false }
                state.descriptors.formUnion([client, server])
                return true
            }
            guard tracked else {
                close(client)
                close(server)
                continue
            }
            let pair = SocketPair(client: client, server: server)
            Thread.detachNewThread { [self] in pump(pair, answers: false) }
            Thread.detachNewThread { [self] in pump(pair, answers: true) }
        }
    }

    /// One proxied connection: both sockets, closed once both directions have ended.
    private final class SocketPair: Sendable {
        let client: Int32
        let server: Int32
        private let running = Mutex(2)

        init(client: Int32, server: Int32) {
            self.client = client
            self.server = server
        }

        /// Cuts both ways; true for the last direction to end, which closes the sockets.
        func end() -> Bool {
            shutdown(client, Int32(SHUT_RDWR))
            shutdown(server, Int32(SHUT_RDWR))
            return running.withLock { running in
                running -= 1
                return running == 0
            }
        }
    }

    /// Copies bytes one way until either side closes, as the mode says at each chunk.
    private func pump(_ pair: SocketPair, answers: Bool) {
        let (source, destination) = answers ? (pair.server, pair.client) : (pair.client, pair.server)
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(source, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            let current = mode
            if case .slow(let milliseconds) = current { usleep(UInt32(milliseconds) * 1_000) }
            switch current {
            case .answer(let answer) where !answers:
                let answered = state.withLock { state -> Int in
                    state.answered += 1
                    return state.answered
                }
                if answer.write(to: pair.client, answered: answered) { continue }
            case .answer: continue
            case .partition: continue
            case .dropAnswers where answers: break
            default:
                let written = buffer.withUnsafeBytes { write(destination, $0.baseAddress, count) }
                if written == count { continue }
            }
            break
        }
        guard pair.end() else { return }
        // Forgotten before closed, under the lock `stop` shuts them down under: never a reused number.
        state.withLock { $0.descriptors.subtract([pair.client, pair.server]) }
        close(pair.client)
        close(pair.server)
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return address
    }
}
