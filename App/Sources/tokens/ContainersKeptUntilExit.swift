import AppComposition
import Synchronization

/// Closed containers, kept until the process exits (a command ends with exit(3), which frees
/// everything at once): released earlier, a vault's GRDB queue is disposed of by Dispatch, which
/// starts two threads just for that, a tenth of a REAL one-shot's time.
enum ContainersKeptUntilExit {
    private static let kept = Mutex<[any AppContainer]>([])

    static func keep(_ container: any AppContainer) {
        kept.withLock { $0.append(container) }
    }
}
