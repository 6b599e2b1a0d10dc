import Foundation

/// Whether tests that depend on something optional (tmux, the ../shared corpus) must run.
/// `.ci/run` sets TOKENS_REQUIRE_ALL_TESTS=1: in CI a missing prerequisite fails its suite
/// instead of skipping it. In a user's clone such suites skip, with the reason printed.
public enum RequiredTests {
    public static let all = ProcessInfo.processInfo.environment["TOKENS_REQUIRE_ALL_TESTS"] == "1"
}
