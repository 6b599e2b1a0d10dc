import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// SIGTERM and SIGINT while the server starts (before its service group handles them): nothing
/// has been written yet, so the server says so in one line and ends at once, as killed by that
/// signal. Plain signal handlers, set and reset synchronously (a dispatch signal source's
/// cancellation runs later, and could reset the disposition the service group had set since).
enum StartupSignals {
    static func stoppingAtOnce<T>(_ body: () async throws -> T) async rethrows -> T {
        startupStopMessage = strdup("tokens-server: stopped during start-up\n")
        for number in [SIGTERM, SIGINT] { signal(number, stopAtOnce) }
        defer { for number in [SIGTERM, SIGINT] { signal(number, SIG_DFL) } }
        return try await body()
    }
}

/// The line the handler writes, made before it is installed (a handler may only call
/// async-signal-safe functions: no allocation there).
nonisolated(unsafe) private var startupStopMessage: UnsafeMutablePointer<CChar>?

/// Writes the line, then ends the process by the signal it received.
private func stopAtOnce(_ number: Int32) {
    if let message = startupStopMessage { _ = write(2, message, strlen(message)) }
    signal(number, SIG_DFL)
    raise(number)
}
