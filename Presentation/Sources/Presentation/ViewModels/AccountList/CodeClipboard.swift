import Foundation

/// Copies codes to the clipboard and clears it after a timeout, on the injected clock.
@MainActor
final class CodeClipboard {
    private let clipboard: any Clipboard
    private let scheduler: any Clock<Duration>
    private let timeout: Duration
    private var clearing: Task<Void, Never>?
    /// Whether the clipboard's caveat was asked for (with the first copy only: asking may be costly).
    private var caveatSaid = false

    init(_ clipboard: any Clipboard, scheduler: any Clock<Duration>, timeout: Duration) {
        self.clipboard = clipboard
        self.scheduler = scheduler
        self.timeout = timeout
    }

    /// Copies `code` (its grouping spaces removed) and returns the notice (with the clipboard's
    /// caveat the first time); `cleared` runs once the clipboard is cleared, unless another copy
    /// came first.
    func copy(_ code: String, of label: String, cleared: @escaping @MainActor () -> Void) -> String {
        clipboard.copy(code.replacingOccurrences(of: " ", with: ""))
        clearing?.cancel()
        clearing = Task { [clipboard, scheduler, timeout] in
            do { try await scheduler.sleep(for: timeout) } catch { return }
            clipboard.clear()
            cleared()
        }
        let notice = "Copied the \(label) code; the clipboard clears in \(timeout.components.seconds) s"
        guard !caveatSaid else { return notice }
        caveatSaid = true
        return clipboard.caveat.map { notice + " (\($0))" } ?? notice
    }
}
