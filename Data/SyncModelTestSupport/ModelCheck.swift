import Domain
import DomainTestSupport
import Foundation

/// What every lifecycle model check shares, whichever server it runs against: the scenario a
/// seed stands for, one run on a fresh server, and the shrinking of a failing history to the
/// shortest that still fails.
public enum ModelCheck {
    /// Runs `body` on a fresh server for `run`, and ends that server afterwards.
    public typealias ServerScope =
        @Sendable (_ run: ModelRun, _ body: @Sendable (any ModelServer) async throws -> [String]) async throws -> [String]

    /// The sync code every history's machines share (each history has a server of its own).
    public static let code = SyncCode(
        account: UUID(uuidString: "00000000-0000-4000-8000-00000000c0de")!, key: SyncKey(bytes: Array(repeating: 9, count: 32))!)

    /// A fresh in-memory server per run.
    public static let inMemory: ServerScope = { run, body in try await body(InMemoryModelServer(pageSize: run.pageSize)) }

    /// The machines, page size and history a seed stands for: 2 to `maxMachines` machines and
    /// `lengths` steps.
    public static func scenario(_ seed: UInt64, maxMachines: Int = 5, lengths: ClosedRange<Int> = 10...60) -> (
        run: ModelRun, history: [ModelStep]
    ) {
        var random = SplitMix(seed: seed ^ 0x5EED)
        let machines = Int.random(in: 2...maxMachines, using: &random)
        let run = ModelRun(machineCount: machines, pageSize: Int.random(in: 2...6, using: &random))
        return (run, ModelStep.history(seed: seed, machines: machines, length: Int.random(in: lengths, using: &random)))
    }

    /// The field the model's machine on a newer build writes (no build knows it).
    public static let newerField = "archived"

    /// `scenario` with mixed versions: machine 0 runs a newer build that also sets a field the
    /// others do not know (`newerField`), in about one step in ten, inserted by a generator of its
    /// own so the rest of the history is the one `scenario` draws.
    public static func mixedScenario(_ seed: UInt64, maxMachines: Int = 5, lengths: ClosedRange<Int> = 10...60) -> (
        run: ModelRun, history: [ModelStep]
    ) {
        let (run, drawn) = scenario(seed, maxMachines: maxMachines, lengths: lengths)
        var random = SplitMix(seed: seed ^ 0x4E3E)
        var history: [ModelStep] = []
        for step in drawn {
            history.append(step)
            if Int.random(in: 0..<10, using: &random) == 0 {
                history.append(.newerField(machine: 0, pick: Int.random(in: 0..<64, using: &random)))
            }
        }
        return (run, history)
    }

    /// The scenario of `seed` as a real server runs it (mixed versions): 2 or 3 machines, 10 to 30 steps, none
    /// of a dishonest server's steps, and so few leaves, revocations and restores that every
    /// join stays within the server's 10 enrolments per sync account and hour (the server's
    /// own device, each machine's first join, and one join again after each such step; a
    /// restored server may have forgotten every machine's device).
    public static func honestScenario(_ seed: UInt64) -> (run: ModelRun, history: [ModelStep]) {
        let (run, drawn) = mixedScenario(seed, maxMachines: 3, lengths: 10...30)
        var joinsLeft = 10 - 1 - run.machineCount
        let history = drawn.filter { step in
            let joins: Int
            switch step {
            case .poison, .dropNextPush, .omit, .replay, .replayMadeUp: return false
            case .leave, .revoke, .restoreVault: joins = 1
            case .restoreServer: joins = run.machineCount
            default: joins = 0
            }
            guard joins <= joinsLeft else { return false }
            joinsLeft -= joins
            return true
        }
        return (run, history)
    }

    /// The problems one history meets on a fresh server; a run that throws is one problem.
    public static func problems(_ run: ModelRun, _ history: [ModelStep], on scope: ServerScope) async -> [String] {
        do { return try await scope(run) { server in try await run.problems(in: history, on: server) } } catch { return ["threw \(error)"] }
    }

    /// Removes steps (halves, then smaller runs, then single steps) while the history still
    /// fails; at most `runs` runs.
    public static func shrink(_ history: [ModelStep], _ run: ModelRun, on scope: ServerScope, runs limit: Int = 600) async -> [ModelStep] {
        var current = history
        var chunk = max(1, current.count / 2)
        var runs = 0
        while runs < limit {
            var index = 0
            var removed = false
            while index < current.count, runs < limit {
                let candidate = Array(current[..<index] + current[min(index + chunk, current.count)...])
                runs += 1
                if await !problems(run, candidate, on: scope).isEmpty {
                    current = candidate
                    removed = true
                } else {
                    index += chunk
                }
            }
            if !removed {
                if chunk == 1 { break }
                chunk /= 2
            }
        }
        return current
    }

    /// A failing seed as the test reports it: what failed, how to replay it, and the shortest
    /// history that still fails, with its problems.
    public static func report(
        seed: UInt64, problems: [String], failing: Int, replay: String, run: ModelRun, shortest: [ModelStep], shortestProblems: [String]
    ) -> String {
        """
        seed \(seed) (\(failing) failing seen; replay: \(replay)): \(problems.joined(separator: "; "))
        shortest history that still fails (\(run.machineCount) machines, pages of \(run.pageSize)):
        \(shortest.enumerated().map { "  \($0.offset + 1). \($0.element)" }.joined(separator: "\n"))
        its problems: \(shortestProblems.joined(separator: "; "))
        """
    }
}
