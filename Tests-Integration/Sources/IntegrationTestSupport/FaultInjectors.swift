import Foundation

/// Tests-Integration's own fault injectors, built beside the test bundle.
public enum FaultInjectors {
    /// `no-keyring COMMAND…`: runs COMMAND where the kernel keyring's system calls fail with
    /// EPERM, as in a container whose seccomp profile blocks them.
    public static var noKeyring: String {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("no-keyring").path
    }
}
