import Testing

/// Lets other tasks run until `condition` holds, for up to `timeout` of real time, and says
/// whether it came to hold. A bounded count of `Task.yield()`s would depend on the machine's
/// speed: on a loaded machine the awaited work may not get a thread within any fixed count. The
/// condition runs in the caller's isolation (for example on the main actor, reading a view model).
public func eventually(
    within timeout: Duration = .seconds(30), isolation: isolated (any Actor)? = #isolation,
    _ condition: () -> Bool
) async -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: timeout)
    while !condition() {
        guard clock.now < deadline else { return false }
        await Task.yield()
        try? await Task.sleep(for: .milliseconds(1))
    }
    return true
}
