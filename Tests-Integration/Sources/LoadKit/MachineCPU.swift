import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The whole machine's busy processor time, every program's together (the server, PostgreSQL,
/// wrk, pgbench), from Linux's /proc/stat: on cores the programs share, what a request costs all
/// of them is what sets a rate, so a run's busy time over its requests says where a ratio stands.
public enum MachineCPU {
    /// Busy seconds since boot summed over every core (user, nice, system, irq, softirq and
    /// steal: not idle, not waiting for a disk); nil where there is no /proc/stat.
    public static var busySeconds: Double? {
        guard let stat = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
            let line = stat.split(separator: "\n").first(where: { $0.hasPrefix("cpu ") })
        else { return nil }
        let ticks = line.split(separator: " ").dropFirst().compactMap { Double($0) }
        guard ticks.count >= 8 else { return nil }
        let busy = ticks[0] + ticks[1] + ticks[2] + ticks[5] + ticks[6] + ticks[7]
        return busy / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}
