import Foundation
import Observation
import Presentation

/// The interactive account list: draws the view model live in the alternate screen and turns
/// key presses into the view model's inputs. `/` searches, arrows move, Enter makes an HOTP
/// code, `q` quits.
@MainActor
public final class AccountListScreen {
    private let viewModel: AccountListViewModel
    private let terminal: Terminal
    private let view: AccountListView
    private var chrome = AccountListView.Chrome(selectedIndex: 0)
    private var isRunning = true

    public init(viewModel: AccountListViewModel, terminal: Terminal = Terminal(), style: Style) {
        self.viewModel = viewModel
        self.terminal = terminal
        self.view = AccountListView(style: style)
    }

    /// Runs until the user quits; the terminal is restored however it ends.
    public func run() async {
        terminal.enter(onResize: { Task { @MainActor [weak self] in self?.draw() } })
        defer { terminal.leave() }
        await viewModel.load()
        let ticker = Task { await viewModel.run() }
        defer { ticker.cancel() }
        drawOnChange()
        for await key in terminal.keys() {
            await handle(key)
            guard isRunning else { break }
            draw()
        }
    }

    /// Draws now, and again whenever anything the drawing read changes.
    private func drawOnChange() {
        guard isRunning else { return }
        withObservationTracking {
            draw()
        } onChange: {
            Task { @MainActor [weak self] in self?.drawOnChange() }
        }
    }

    private func draw() {
        guard isRunning else { return }
        let size = terminal.size
        let lines = view.render(
            state: viewModel.state, query: viewModel.query, chrome: chrome, width: size.width, height: size.height)
        Terminal.output("\u{1B}[H" + lines.joined(separator: "\u{1B}[K\r\n") + "\u{1B}[K\u{1B}[J")
    }

    private var rowCount: Int { viewModel.state.value?.count ?? 0 }

    private func handle(_ key: Key) async {
        chrome.notice = nil
        if chrome.isSearching {
            switch key {
            case .enter, .down: chrome.isSearching = false
            case .escape:
                chrome.isSearching = false
                viewModel.queryChanged("")
            case .backspace: viewModel.queryChanged(String(viewModel.query.dropLast()))
            case .character(let character): viewModel.queryChanged(viewModel.query + String(character))
            case .controlC, .controlD: isRunning = false
            default: break
            }
            chrome.selectedIndex = 0
            return
        }
        switch key {
        case .character("q"), .controlC, .controlD: isRunning = false
        case .escape:
            if !viewModel.query.isEmpty { viewModel.queryChanged("") } else { isRunning = false }
        case .character("/"): chrome.isSearching = true
        case .up, .character("k"): chrome.selectedIndex = max(0, (chrome.selectedIndex ?? 0) - 1)
        case .down, .character("j"): chrome.selectedIndex = min(max(0, rowCount - 1), (chrome.selectedIndex ?? 0) + 1)
        case .enter:
            if let rows = viewModel.state.value, let index = chrome.selectedIndex, rows.indices.contains(index) {
                if case .timed = rows[index].display {
                    chrome.notice = "Time-based codes refresh by themselves."
                } else {
                    await viewModel.generateCode(for: rows[index].id)
                }
            }
        default: break
        }
    }
}
