import Foundation

/// The sync server's liveness answer: its time, as this machine measured it, and the version it
/// names (nil: it names none).
public struct SyncServerHealthReport: Equatable, Sendable {
    public let time: ServerTimeSample
    public let version: String?

    public init(time: ServerTimeSample, version: String?) {
        self.time = time
        self.version = version
    }
}

/// Port: asks the sync server whether it answers, and its time (no token needed): what
/// `tokens doctor` checks. Data's remote implements it over HTTP.
public protocol SyncServerHealth: Sendable {
    func check() async throws(SyncError) -> SyncServerHealthReport
}
