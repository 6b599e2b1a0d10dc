import AppConfiguration
import Domain
import Foundation
import Presentation

/// The clock codes are computed at (`codes.offset`) and what is said of this machine's clock
/// (`clock.warn`), from the offset the last sync measured against the server.
package enum ClockComposer {
    /// The clock for codes, the offset last measured (nil: none, or the phase does not sync) and
    /// the seconds added to this machine's clock.
    package struct CodeTime: Sendable {
        package let clock: any WallClock
        package let measured: ClockOffset?
        package let applied: Int
    }

    /// Reads the measured offset only under `auto`: the vault's sync state is read through GRDB,
    /// past the read path a one-shot `code` otherwise takes alone. (A sync warns of what it
    /// measures, whatever the setting; so do the screen and doctor.)
    package static func codeTime(for container: any AppContainer, settings: AppSettings) async -> CodeTime {
        var measured: ClockOffset?
        if settings.clock.codesOffset.value == .auto {
            measured = (try? await container.syncing?.container.syncStore.clockOffset()) ?? nil
        }
        let applied = codesOffset(settings).seconds(measured: measured)
        let clock = applied == 0 ? container.clock : OffsetClock(base: container.clock, seconds: applied)
        return CodeTime(clock: clock, measured: measured, applied: applied)
    }

    /// The setting as Domain's rule.
    package static func codesOffset(_ settings: AppSettings) -> CodesOffset {
        switch settings.clock.codesOffset.value {
        case .auto: .measured
        case .seconds(0): .none
        case .seconds(let seconds): .fixed(seconds: seconds)
        }
    }

    /// The warning for `offset`, when it is beyond `clock.warn`.
    package static func warning(_ offset: ClockOffset?, settings: AppSettings) -> String? {
        guard let offset else { return nil }
        return ClockOffsetText.warning(
            offset, limit: settings.clock.warnSeconds.value, correcting: settings.clock.codesOffset.value == .auto)
    }

    /// The screen header's words for the clock (see `ClockOffsetText.header`).
    package static func header(_ time: CodeTime, settings: AppSettings) -> String? {
        ClockOffsetText.header(measured: time.measured, applied: time.applied, limit: settings.clock.warnSeconds.value)
    }
}
