import Domain
import Foundation

/// What Tokens says of this machine's clock against the sync server's: the warning when it is
/// beyond `clock.warn`, and the correction `codes.offset` applies to codes.
public enum ClockOffsetText {
    /// "63 s behind" or "12 s ahead of" the server, in whole seconds.
    public static func relation(_ offset: ClockOffset) -> String {
        // The offset is the server ahead of this machine: this machine is behind by as much.
        let seconds = offset.wholeSeconds
        return seconds > 0 ? "\(duration(seconds)) behind" : "\(duration(-seconds)) ahead of"
    }

    /// A whole number of seconds as seconds, minutes, hours or days ("63 s", "12 min", "3 h",
    /// "2 days"): how long the clock is off, and `tokens doctor`'s ages.
    public static func duration(_ seconds: Int) -> String {
        switch seconds {
        case ..<120: "\(seconds) s"
        case ..<7_200: "\(seconds / 60) min"
        case ..<172_800: "\(seconds / 3_600) h"
        default: "\(seconds / 86_400) days"
        }
    }

    /// What to do about a clock that is off.
    public static let timeSyncFix = "turn on time sync (chrony, or systemd-timesyncd: timedatectl set-ntp true)"

    /// The warning for standard error when `offset` is surely beyond `limit` seconds; nil when it
    /// is not. `correcting`: codes.offset is auto, so codes are computed at the server's time.
    public static func warning(_ offset: ClockOffset, limit: Int, correcting: Bool) -> String? {
        guard offset.isBeyond(TimeInterval(limit)) else { return nil }
        let clock = "this machine's clock is \(relation(offset)) the sync server's"
        let fix = timeSyncFix
        if correcting { return "\(clock): codes are computed at the server's time (codes.offset auto); \(fix)" }
        return "\(clock), so its codes may be refused: \(fix), or set codes.offset to auto"
    }

    /// What the codes are computed at, when not this machine's clock ("codes at +30 s"); nil for 0.
    public static func correction(seconds: Int) -> String? {
        guard seconds != 0 else { return nil }
        return "codes at \(seconds > 0 ? "+" : "-")\(duration(abs(seconds)))"
    }

    /// The screen header's few words: the correction when codes have one, else the clock when it
    /// is beyond `limit`; nil when there is nothing to say.
    public static func header(measured: ClockOffset?, applied: Int, limit: Int) -> String? {
        if let correction = correction(seconds: applied) { return correction }
        guard let measured, measured.isBeyond(TimeInterval(limit)) else { return nil }
        let seconds = measured.wholeSeconds
        return "clock \(duration(abs(seconds))) \(seconds > 0 ? "slow" : "fast")"
    }
}
