/// Whether this machine's clock is kept synchronised, as its kernel tells (chrony,
/// systemd-timesyncd or ntpd keep it so): what `tokens doctor` says beside the measured offset.
public enum TimeSyncState: Equatable, Sendable {
    /// Synchronised, with the kernel's estimated error in seconds.
    case synchronized(estimatedError: Double)
    /// The kernel marks the clock unsynchronised: no daemon keeps it, or it has not caught up.
    case unsynchronized
    /// It cannot be read here.
    case unknown
}
