import HummingbirdCore
import Logging

/// The HTTP/1.1 channel configuration of the sync server: each connection guarded by the
/// ConnectionLimits (counted in `counter`, shared by every connection of the server).
public enum GuardedHTTP1 {
    public static func configuration(counter: ConnectionCounter, limits: ConnectionLimits, logger: Logger) -> HTTP1Channel.Configuration {
        HTTP1Channel.Configuration(
            additionalChannelHandlers: [ConnectionGuardHandler(counter: counter, limits: limits, logger: logger)])
    }
}
