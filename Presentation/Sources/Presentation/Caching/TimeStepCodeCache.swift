import Domain
import Foundation
import Synchronization

/// GenerateCodes for a list that redraws every second (a decorator of Domain's use case): a time
/// step's codes are made once per account and kept until the step (or what the code depends on)
/// changes, since each code changes only once a period. So that the first frame of a period does
/// not make every account's code at once, each call also makes a few accounts' code for the step
/// after next ahead of time; when the step turns, next becomes current and that code next.
public final class TimeStepCodeCache: GenerateCodesUseCase {
    /// Codes made ahead per call: enough for a list refreshed every second to be ready for the
    /// next turn in about 16 s, whatever its length.
    static func aheadBudget(accounts: Int) -> Int { max(1, accounts / 16) }

    private let generator: any GenerateCodesUseCase
    private let entries = Mutex<[UUID: Entry]>([:])

    /// Keeps the codes `generator` makes.
    public init(generating generator: any GenerateCodesUseCase) {
        self.generator = generator
    }

    public func execute(for accounts: [Account], at date: Date) -> [GeneratedCode] {
        entries.withLock { entries in
            var ahead = Self.aheadBudget(accounts: accounts.count)
            var madeAhead: [Int: [Account]] = [:]
            var codes = accounts.map { account -> GeneratedCode? in
                guard let period = account.kind.period else { return GeneratedCode(waitingForRequest: account) }
                let step = OTPGenerator.timeStep(at: date, period: period)
                guard var entry = entries[account.id], entry.holds(account) else { return nil }
                if entry.step != step {
                    guard entry.step &+ 1 == step, let afterNext = entry.afterNext else { return nil }
                    entry = entry.turned(afterNext: afterNext)
                    entries[account.id] = entry
                } else if entry.afterNext == nil, ahead > 0 {
                    ahead -= 1
                    madeAhead[period, default: []].append(account)
                }
                return GeneratedCode(account: account, at: date, code: entry.current, nextCode: entry.next)
            }
            // A period later, the next code is the one of the step after next: one call a period.
            for (period, batch) in madeAhead {
                for code in generator.execute(for: batch, at: date.addingTimeInterval(Double(period))) {
                    entries[code.accountID]?.afterNext = code.nextCode
                }
            }
            // Accounts seen for the first time, edited, or whose step moved on with no code made
            // ahead: made together, in one call.
            let missing = accounts.indices.filter { codes[$0] == nil }
            if !missing.isEmpty {
                for (index, code) in zip(missing, generator.execute(for: missing.map { accounts[$0] }, at: date)) {
                    codes[index] = code
                    let account = accounts[index]
                    if let period = account.kind.period, let current = code.code, let next = code.nextCode {
                        let step = OTPGenerator.timeStep(at: date, period: period)
                        entries[account.id] = Entry(account: account, step: step, current: current, next: next)
                    }
                }
            }
            // Every code is made by now: the missing ones just above.
            return codes.map { $0! }
        }
    }

    /// One account's codes for a time step, the next one and (once made ahead) the one after,
    /// with what they were made from.
    private struct Entry: Sendable {
        /// What the codes depend on: the secret, the kind and the parameters.
        let made: DuplicateKey
        var step: UInt64
        var current: String
        var next: String
        /// The code of `step + 2`, made ahead of time.
        var afterNext: String?

        init(account: Account, step: UInt64, current: String, next: String) {
            made = DuplicateKey(account)
            (self.step, self.current, self.next, afterNext) = (step, current, next, nil)
        }

        /// Whether the entry was made for the account as it is now.
        func holds(_ account: Account) -> Bool {
            made == DuplicateKey(account)
        }

        /// The entry one step later: next becomes current, the code made ahead next.
        func turned(afterNext: String) -> Entry {
            var entry = self
            (entry.step, entry.current, entry.next, entry.afterNext) = (step &+ 1, next, afterNext, nil)
            return entry
        }
    }
}
