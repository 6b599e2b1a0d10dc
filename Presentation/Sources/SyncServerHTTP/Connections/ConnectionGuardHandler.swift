import Logging
import NIOCore
import NIOHTTPTypes

/// Lets a connection in only within the ConnectionLimits (else closes it at once, said in the
/// log at most once every 10 s with how many were refused), and closes a connection that takes
/// longer than the request timeout to send its first request (or a later one's body), or idles
/// longer than the idle timeout between requests.
/// A request being answered (a long-poll waiting) is not timed; if its client closes its side
/// meanwhile, the connection closes (RequestConnection then ends the wait).
final class ConnectionGuardHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    static let reportInterval: Duration = .seconds(10)

    private let counter: ConnectionCounter
    private let requestTimeout: TimeAmount
    private let idleTimeout: TimeAmount
    private let logger: Logger
    private var address: String?
    private var admitted = false
    private var counted = false
    /// Requests received whole and not yet answered.
    private var unanswered = 0
    private var deadline: Scheduled<Void>?

    init(counter: ConnectionCounter, limits: ConnectionLimits, logger: Logger) {
        self.counter = counter
        requestTimeout = TimeAmount(limits.requestTimeout)
        idleTimeout = TimeAmount(limits.idleTimeout)
        self.logger = logger
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { admit(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        admit(context)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            // Its body must follow in time (a request pipelined behind one being answered too).
            arm(context, requestTimeout)
        case .body: break
        case .end:
            unanswered += 1
            disarm()
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) {
            unanswered = max(0, unanswered - 1)
            if unanswered == 0 { arm(context, idleTimeout) }
        }
        context.write(data, promise: promise)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        // The client closed its side while a request of its is being answered: it has gone (a
        // client that walks away from a long-poll closes its socket). Closing the connection ends
        // the wait now instead of holding the connection until the wait is over.
        if let event = event as? ChannelEvent, event == .inputClosed, unanswered > 0 {
            context.close(promise: nil)
        }
        context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
        release()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) { release() }

    private func admit(_ context: ChannelHandlerContext) {
        guard !admitted else { return }
        admitted = true
        address = context.channel.remoteAddress?.ipAddress
        if let refusal = counter.open(from: address) {
            report(refusal)
            context.close(promise: nil)
            return
        }
        counted = true
        arm(context, requestTimeout)
    }

    private func arm(_ context: ChannelHandlerContext, _ timeout: TimeAmount) {
        disarm()
        let logger = self.logger
        deadline = context.eventLoop.assumeIsolated().scheduleTask(in: timeout) {
            logger.debug(
                "closed a connection that sent no whole request in time, or idled too long",
                metadata: ["seconds": "\(timeout.nanoseconds / 1_000_000_000)"])
            context.close(promise: nil)
        }
    }

    private func disarm() {
        deadline?.cancel()
        deadline = nil
    }

    private func release() {
        disarm()
        if counted {
            counted = false
            counter.close(from: address)
        }
    }

    private func report(_ refusal: ConnectionCounter.Refusal) {
        guard let refused = counter.refusalsToReport(now: .now, interval: Self.reportInterval) else { return }
        switch refusal {
        case .tooManyInAll(let limit):
            logger.warning(
                "refusing connections: \(limit) open in all (server.connections.max)", metadata: ["refused": "\(refused)"])
        case .tooManyFromAddress(let limit):
            logger.warning(
                "refusing connections: \(limit) open from one address (server.connections.per.address)",
                metadata: ["refused": "\(refused)", "address": "\(address ?? "unknown")"])
        }
    }
}
