import Foundation
import Observation
import Presentation

/// The interactive app on a terminal: draws whichever screen the router shows, live, in the
/// alternate screen, and hands each decoded key to the ScreenController. Everything it shows
/// comes from AppState, the controller and the router's view models.
@MainActor
public final class AppScreen {
    private let controller: ScreenController
    private let terminal: Terminal
    private let listView: AccountListView
    private let unlockView: UnlockView
    private let addView: AddAccountView
    private let detailView: AccountDetailView
    private let backupWarning: RefreshedStatus?
    private let clockCheck: ClockCheckViewModel?

    /// `sync`: the sync schedule when this vault syncs (the status shows in the header, `s` syncs).
    /// `backupWarning`: shown in the header when the backups are old ("no backup for 9 days"),
    /// read again now and then.
    public init(
        router: AppRouter, sync: SyncScheduler? = nil, backupWarning: RefreshedStatus? = nil, clockCheck: ClockCheckViewModel? = nil,
        terminal: Terminal = Terminal(), style: Style
    ) {
        self.backupWarning = backupWarning
        self.clockCheck = clockCheck
        self.controller = ScreenController(router: router, sync: sync)
        self.terminal = terminal
        self.listView = AccountListView(style: style)
        self.unlockView = UnlockView(style: style)
        self.addView = AddAccountView(style: style)
        self.detailView = AccountDetailView(style: style)
    }

    /// Runs until the user quits; the terminal is restored however it ends.
    public func run() async {
        terminal.enter(onResize: { Task { @MainActor [weak self] in self?.draw() } })
        defer {
            controller.stop()
            terminal.leave()
        }
        await controller.start()
        drawOnChange()
        for await key in terminal.keys() {
            await controller.handle(key)
            guard controller.isRunning else { break }
            draw()
        }
    }

    private func drawOnChange() {
        guard controller.isRunning else { return }
        withObservationTracking {
            draw()
        } onChange: {
            Task { @MainActor [weak self] in
                await self?.controller.loadShownScreens()
                self?.drawOnChange()
            }
        }
    }

    private func draw() {
        guard controller.isRunning else { return }
        let router = controller.router
        let (width, height) = terminal.size
        let lines: [String]
        switch router.appState.route {
        case .unlock:
            lines = unlockView.render(
                state: router.unlock?.state ?? .ready, typed: controller.typedPassphraseLength, width: width, height: height)
        case .add:
            guard let add = router.add else { return }
            lines = addView.render(add, width: width, height: height)
        case .detail:
            guard let detail = router.detail else { return }
            lines = detailView.render(detail, width: width, height: height)
        case .list:
            guard let list = router.list else { return }
            // Codes for the rows this frame shows (a long list makes a screenful of codes).
            let count = list.state.value?.count ?? 0
            list.showRows(AccountListView.shownRows(count: count, selected: controller.selectedIndex, screenHeight: height))
            let chrome = AccountListView.Chrome(
                isSearching: controller.isSearching, selectedIndex: controller.selectedIndex, notice: controller.listNotice,
                sync: controller.sync.flatMap { $0.status.isSyncing ? $0.status.line(formattingTime: Self.clockTime) : nil },
                backup: backupWarning?.value, clock: clockCheck?.header, keys: controller.listKeys, showingHelp: controller.help != nil)
            lines = listView.render(state: list.state, query: list.query, chrome: chrome, width: width, height: height)
        }
        Terminal.output("\u{1B}[H" + lines.joined(separator: "\u{1B}[K\r\n") + "\u{1B}[K\u{1B}[J")
    }

    /// "14:02", in the machine's time zone.
    static func clockTime(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "HH:mm"
        return formatter.string(from: date)
    }
}
