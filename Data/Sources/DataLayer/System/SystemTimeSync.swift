import CTimeSync
import Domain

/// Reads whether the system clock is kept synchronised from the kernel (adjtimex(2), read only).
public enum SystemTimeSync {
    public static func state() -> TimeSyncState {
        var error = 0
        switch tokens_clock_synchronized(&error) {
        case 1: return .synchronized(estimatedError: Double(error) / 1_000_000)
        case 0: return .unsynchronized
        default: return .unknown
        }
    }
}
