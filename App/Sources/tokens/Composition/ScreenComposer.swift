import AppComposition
import AppConfiguration
import Domain
import Presentation
import SyncComposition
import TerminalUI

/// Builds the interactive screen's graph for one run: the router over the phase's container and,
/// for a vault that belongs to a sync account, the background sync the header shows. The only
/// place that knows both the screen's container and the sync client's (`tokens` links both).
@MainActor
enum ScreenComposer {
    static func makeSession(
        _ container: any AppContainer, lock: any AccountStoreLock, settings: AppSettings, unlocked: Bool
    ) -> ScreenSession {
        let clockCheck = ClockCheckViewModel(
            base: container.clock, setting: ClockComposer.codesOffset(settings), limit: settings.clock.warnSeconds.value,
            stored: keptClockOffset(container))
        let sync = makeBackgroundSync(container, settings: settings, clockCheck: clockCheck)
        let screens = ScreenContainer(
            container: container, lock: lock,
            clipboard: OSC52Clipboard {
                TmuxClipboard.caveat(environment: ProcessEnvironment.variables, setClipboard: TmuxClipboard.setClipboardOption)
            },
            options: .init(
                nextCodeWindow: settings.nextCodeSeconds.value,
                clipboardTimeout: .seconds(settings.clipboardClearSeconds.value)),
            codeClock: clockCheck.codeClock)
        let router = screens.makeRouter(idleTimeout: .seconds(settings.idleLockSeconds.value))
        router.unlockedBeforeStart = unlocked
        let screen = AppScreen(
            router: router, sync: sync?.scheduler,
            backupWarning: RefreshedStatus(every: .seconds(60)) {
                BackupComposer.staleWarning(settings: settings, now: container.clock.now())
            },
            clockCheck: clockCheck,
            style: Style.fromEnvironment(ProcessEnvironment.variables))
        return ScreenSession(screen: screen, sync: sync)
    }

    /// Reads the clock offset an earlier sync kept in the vault (nil: the phase does not sync).
    private static func keptClockOffset(_ container: any AppContainer) -> (@Sendable () async -> ClockOffset?)? {
        guard let store = container.syncing?.container.syncStore else { return nil }
        return {
            let offset = try? await store.clockOffset()
            return offset ?? nil
        }
    }

    /// A vault phase syncs on the list's opening and every sync.interval, when it belongs to a
    /// sync account (the first sync finds out; otherwise the header shows nothing). DEV syncs
    /// with its in-process server; a vault with its membership's server, over one connection.
    private static func makeBackgroundSync(
        _ container: any AppContainer, settings: AppSettings, clockCheck: ClockCheckViewModel
    ) -> BackgroundSync? {
        guard let vault = container.syncing?.container else { return nil }
        let membership: MembershipSyncUseCase?
        let useCase: any SyncUseCase
        if let local = vault.localSync {
            (membership, useCase) = (nil, local)
        } else {
            let remote = SyncComposer.makeMembershipSyncUseCase(
                store: vault.syncStore, random: vault.random, clock: container.clock, caFile: settings.sync.caFilePath)
            (membership, useCase) = (remote, remote)
        }
        let scheduler = SyncScheduler(
            status: SyncStatusViewModel(
                sync: useCase, local: vault.syncStore, clock: container.clock, server: vault.localSync == nil ? nil : "DEV: in memory",
                clockCheck: clockCheck),
            interval: .seconds(settings.sync.intervalSeconds.value), clock: ContinuousClock())
        return BackgroundSync(scheduler: scheduler, membership: membership)
    }
}
