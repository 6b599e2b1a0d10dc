import Presentation
import Testing

/// A status read from outside the screen: read once, kept for its interval, read again after.
@MainActor
@Suite("Refreshed status")
struct RefreshedStatusTests {
    /// The outside world: the time and what the folder says, moved by the test.
    @MainActor
    final class World {
        var now = ContinuousClock.now
        var reads = 0
        var folder: String? = "no backup yet"
    }

    @Test("read at first use, kept within the interval, read again once it is that old")
    func refreshes() {
        let world = World()
        let status = RefreshedStatus(
            every: .seconds(60), now: { world.now },
            read: {
                world.reads += 1
                return world.folder
            })
        #expect(status.value == "no backup yet" && world.reads == 1)
        world.folder = nil
        world.now += .seconds(59)
        #expect(status.value == "no backup yet" && world.reads == 1)
        world.now += .seconds(1)
        #expect(status.value == nil && world.reads == 2)
        #expect(status.value == nil && world.reads == 2)
    }
}
