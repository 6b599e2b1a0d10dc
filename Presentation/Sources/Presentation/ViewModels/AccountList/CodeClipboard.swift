import Foundation

/// Copies codes to the clipboard and clears it after a timeout, on the injected clock.
@MainActor
final class CodeClipboard {
    private let clipboard: any Clipboard
    private let scheduler: any Clock<Duration>
    private let timeout: Duration
    private var clearing: Task<Void, Never>?

    init(_ clipboard: any Clipboard, scheduler: any Clock<Duration>, timeout: Duration) {
        self.clipboard = clipboard
        self.scheduler = scheduler
        self.timeout = timeout
    }

    /// Copies `code` (its grouping spaces removed) and returns the notice; `cleared` runs once
    /// the clipboard is cleared, unless another copy came first.
    func copy(_ code: String, of label: String, cleared: @escaping @MainActor () -> Void) -> String {
        clipboard.copy(code.replacingOccurrences(of: " ", with: ""))
        clearing?.cancel()
        clearing = Task { [clipboard, scheduler, timeout] in
            do { try await scheduler.sleep(for: timeout) } catch { return }
            clipboard.clear()
            cleared()
        }
        return "Copied the \(label) code; the clipboard clears in \(timeout.components.seconds) s"
    }
}
