import Foundation
import Observation

/// The app's state, in one place: routing (which screen), session (locked or not) and system
/// state (the notice on screen). Use cases' results reach the screens through view models the
/// router keeps here; the views only read.
@MainActor
@Observable
public final class AppState {
    public internal(set) var route: Route
    public internal(set) var isLocked: Bool
    /// A short message for the status line ("Copied", "Deleted … (u to undo)").
    public internal(set) var notice: String?

    public init(route: Route = .list, isLocked: Bool = false) {
        self.route = route
        self.isLocked = isLocked
    }
}
