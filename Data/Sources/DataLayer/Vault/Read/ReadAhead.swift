import Foundation
import Synchronization

/// Work on rows while the rest are still being read, in two stages: what a check of the rows
/// needs (`first`: their digests), then what the caller wants of them (`then`: decrypting).
/// The reading thread hands in batches as it reads; helper threads (one per other core, started
/// at the first batch) take each batch's first stage before any second stage; once the reading
/// is done, the reading thread finishes the first stages, checks the rows, and then works on
/// the second stages beside the helpers. Reading 10 000 entries keeps one core busy for a third
/// of a full read, and checking them for a tenth: this keeps the other core working meanwhile.
enum ReadAhead {
    /// `read`'s batches through both stages: `check` of what `read` returned and of every first
    /// stage (in the order handed), then every second stage in that order, or the first
    /// (in that order) that failed. When `read` or `check` throws, the work not yet taken is
    /// dropped and the error thrown.
    static func map<Element: Sendable, First: Sendable, Second: Sendable, Read, Checked>(
        first: @Sendable (Element) -> First, then second: @Sendable (Element) throws -> Second,
        reading read: (_ hand: ([Element]) -> Void) throws -> Read, checking check: (Read, [First]) throws -> Checked
    ) throws -> (checked: Checked, mapped: Result<[Second], any Error>) {
        try withoutActuallyEscaping(first) { first in
            try withoutActuallyEscaping(second) { second in
                let work = Work(first: first, second: second, helpers: ProcessInfo.processInfo.activeProcessorCount - 1)
                defer { work.finish() }
                let value = try read { work.hand($0) }
                let checked = try check(value, work.firstStages())
                return (checked, work.secondStages())
            }
        }
    }

    /// The batches, which stage of each was taken, and their results.
    private final class Work<Element: Sendable, First: Sendable, Second: Sendable>: Sendable {
        private struct State {
            var batches: [[Element]] = []
            var firsts: [[First]?] = []
            var seconds: [Result<Made, any Error>?] = []
            var firstsTaken = 0
            var firstsRunning = 0
            var secondsTaken = 0
            var reading = true
            var dropped = false
            var helpersStarted = false
        }

        /// A batch's second stages, made where they stay until they are moved into the result
        /// (a result of 10 000 accounts is not copied, nor its batches released one by one).
        private struct Made: @unchecked Sendable {
            let values: UnsafeMutableBufferPointer<Second>

            /// Makes `second` of each element; none left made when one fails.
            init(_ batch: [Element], _ second: (Element) throws -> Second) throws {
                values = .allocate(capacity: batch.count)
                var made = 0
                do {
                    for element in batch {
                        (values.baseAddress! + made).initialize(to: try second(element))
                        made += 1
                    }
                } catch {
                    values.baseAddress!.deinitialize(count: made)
                    values.deallocate()
                    throw error
                }
            }

            /// Moves the values to `destination`, which has room for them.
            func move(to destination: UnsafeMutablePointer<Second>) {
                destination.moveInitialize(from: values.baseAddress!, count: values.count)
                values.deallocate()
            }

            func release() {
                values.baseAddress!.deinitialize(count: values.count)
                values.deallocate()
            }
        }

        /// A stage of one batch to run, or why there is none.
        private enum Task {
            case first(Int, [Element])
            case second(Int, [Element])
            case wait
            case done
        }

        private let first: @Sendable (Element) -> First
        private let second: @Sendable (Element) throws -> Second
        private let helpers: Int
        private let state = Mutex(State())
        /// Signalled at each batch handed in, and to wake every helper at the end.
        private let handed = DispatchSemaphore(value: 0)
        /// Signalled at each first stage a helper finishes.
        private let firstFinished = DispatchSemaphore(value: 0)
        private let group = DispatchGroup()

        init(first: @escaping @Sendable (Element) -> First, second: @escaping @Sendable (Element) throws -> Second, helpers: Int) {
            self.first = first
            self.second = second
            self.helpers = max(0, helpers)
        }

        /// A batch read: taken by a helper if one is free.
        func hand(_ batch: [Element]) {
            let start = state.withLock { state -> Bool in
                state.batches.append(batch)
                state.firsts.append(nil)
                state.seconds.append(nil)
                defer { state.helpersStarted = true }
                return !state.helpersStarted
            }
            if start {
                for _ in 0..<helpers { DispatchQueue.global().async(group: group) { self.help() } }
            }
            handed.signal()
        }

        /// Every first stage, in the order handed, once the reading is done: the reading thread
        /// runs those no helper took, then waits for those a helper runs.
        func firstStages() -> [First] {
            state.withLock { $0.reading = false }
            wakeHelpers()
            while true {
                switch take(firstOnly: true, waiting: false) {
                case .first(let index, let batch): run(.first(index, batch))
                default:
                    if state.withLock({ $0.firstsRunning }) == 0 {
                        return state.withLock { state in
                            state.firsts.flatMap { firsts -> [First] in
                                guard let firsts else { preconditionFailure("every first stage ran") }
                                return firsts
                            }
                        }
                    }
                    firstFinished.wait()
                }
            }
        }

        /// Every second stage, in the order handed (or the first failure): the reading thread
        /// runs those no helper took, then waits for the helpers.
        func secondStages() -> Result<[Second], any Error> {
            help()
            group.wait()
            return state.withLock { state in
                defer { state.seconds = [] }
                var made: [Made] = []
                for seconds in state.seconds {
                    guard let seconds else { preconditionFailure("every second stage ran") }
                    switch seconds {
                    case .success(let batch): made.append(batch)
                    case .failure(let error):
                        Self.release(state.seconds)
                        return .failure(error)
                    }
                }
                let count = made.reduce(0) { $0 + $1.values.count }
                return .success(
                    Array(unsafeUninitializedCapacity: count) { buffer, initialized in
                        for batch in made {
                            batch.move(to: buffer.baseAddress! + initialized)
                            initialized += batch.values.count
                        }
                    })
            }
        }

        /// Ends the work however it ended: what no one took is dropped, and no helper outlives
        /// the call (the stages are not escaping beyond it).
        func finish() {
            state.withLock { state in
                state.reading = false
                state.dropped = true
            }
            wakeHelpers()
            group.wait()
            state.withLock { state in
                Self.release(state.seconds)
                state.seconds = []
            }
        }

        /// Releases the second stages made and not moved.
        private static func release(_ seconds: [Result<Made, any Error>?]) {
            for case .success(let batch)? in seconds { batch.release() }
        }

        private func wakeHelpers() {
            for _ in 0..<helpers { handed.signal() }
        }

        /// Runs stages until none is left, waiting for batches while the reading goes on.
        private func help() {
            while true {
                let task = take(firstOnly: false, waiting: true)
                switch task {
                case .wait: handed.wait()
                case .done: return
                case .first, .second: run(task)
                }
            }
        }

        private func take(firstOnly: Bool, waiting: Bool) -> Task {
            state.withLock { state in
                if state.dropped { return .done }
                if state.firstsTaken < state.batches.count {
                    defer {
                        state.firstsTaken += 1
                        state.firstsRunning += 1
                    }
                    return .first(state.firstsTaken, state.batches[state.firstsTaken])
                }
                if !firstOnly, state.secondsTaken < state.batches.count {
                    defer { state.secondsTaken += 1 }
                    return .second(state.secondsTaken, state.batches[state.secondsTaken])
                }
                return state.reading && waiting ? .wait : .done
            }
        }

        private func run(_ task: Task) {
            switch task {
            case .first(let index, let batch):
                let made = batch.map(first)
                state.withLock { state in
                    state.firsts[index] = made
                    state.firstsRunning -= 1
                }
                firstFinished.signal()
            case .second(let index, let batch):
                let made = Result { try Made(batch, second) }
                state.withLock { $0.seconds[index] = made }
            case .wait, .done:
                break
            }
        }
    }
}
