/// A header status read from outside the screen (the backups folder), read again once it is
/// older than `interval`: the header follows a backup made during the session (at a lock, or by
/// `tokens backup` elsewhere) without reading the folder for every frame.
@MainActor
public final class RefreshedStatus {
    private let read: @MainActor () -> String?
    private let interval: Duration
    private let now: @MainActor () -> ContinuousClock.Instant
    private var last: (value: String?, at: ContinuousClock.Instant)?

    /// `now`: the clock the interval is measured on (tests move it by hand).
    public init(
        every interval: Duration, now: @escaping @MainActor () -> ContinuousClock.Instant = { ContinuousClock.now },
        read: @escaping @MainActor () -> String?
    ) {
        self.read = read
        self.interval = interval
        self.now = now
    }

    /// The status, read again when the last reading is `interval` old.
    public var value: String? {
        let time = now()
        if let last, time - last.at < interval { return last.value }
        let value = read()
        last = (value, time)
        return value
    }
}
