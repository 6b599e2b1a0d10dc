import Foundation
import ProcessKit
import Testing

/// A child's peak memory is the child's own: a spawned child shares the test process's memory
/// until it executes, and wait4 would report the test process's high-water mark as the child's.
@Suite("Peak memory of a child process")
struct ProcessMemoryTests {
    @Test("a small child measures small, a child that fills 64 MiB measures at least that")
    func ownPeak() throws {
        let small = try ProcessRunner.run("/bin/true", [], measuringPeakMemory: true)
        #expect(small.status == 0)
        let smallPeak = try #require(small.peakResidentBytes)
        #expect(smallPeak < 16 << 20, "/bin/true: \(smallPeak >> 20) MB")

        let filler = "import sys; b = bytearray(64 << 20); b[::4096] = b'x' * len(b[::4096]); sys.exit(3)"
        let big = try ProcessRunner.run("python3", ["-c", filler], measuringPeakMemory: true)
        #expect(big.status == 3, "the child's status comes through: \(big.stderr)")
        let bigPeak = try #require(big.peakResidentBytes)
        #expect(bigPeak >= 64 << 20 && bigPeak < 256 << 20, "python3: \(bigPeak >> 20) MB")
    }

    @Test("without the measurement, no figure is made up")
    func notMeasured() throws {
        #expect(try ProcessRunner.run("/bin/true", []).peakResidentBytes == nil)
    }
}
