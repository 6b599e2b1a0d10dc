import Foundation

/// Makes the codes to show for accounts at a moment: current code, seconds left and next code.
public protocol GenerateCodesUseCase: Sendable {
    /// Codes at `date`; HOTP accounts get no code (it is made on request by AdvanceHOTP).
    func execute(for accounts: [Account], at date: Date) -> [GeneratedCode]
}

extension GenerateCodesUseCase {
    /// The code of one account at `date`.
    public func execute(for account: Account, at date: Date) -> GeneratedCode {
        execute(for: [account], at: date)[0]
    }
}

/// The GenerateCodes use case over the OTP engine. A time step's codes are made once per
/// account and kept until the step (or what the code depends on) changes: the list redraws
/// every second, but each code changes only once a period. So that the first frame of a period
/// does not make every account's code at once, each call also makes a few accounts' code for the
/// step after next ahead of time; when the step turns, next becomes current and that code next.
public struct DefaultGenerateCodesUseCase: GenerateCodesUseCase {
    private let generator: OTPGenerator
    private let cache = TimeStepCodeCache()

    public init(hmac: any HMACProvider) {
        self.generator = OTPGenerator(hmac: hmac)
    }

    public func execute(for accounts: [Account], at date: Date) -> [GeneratedCode] {
        // Enough codes ahead per call for a list refreshed every second to be ready in ~16 s.
        var ahead = max(1, accounts.count / 16)
        return accounts.map { account in
            guard let period = account.kind.period else {
                return GeneratedCode(
                    accountID: account.id, code: nil, secondsRemaining: nil, period: nil, nextCode: nil,
                    counter: account.counter)
            }
            let step = OTPGenerator.timeStep(at: date, period: period)
            let elapsed = Int(UInt64(max(0, date.timeIntervalSince1970)) % UInt64(period))
            let codes = cache.codes(for: account, step: step, ahead: &ahead) { generator.prepared(for: account) }
            return GeneratedCode(
                accountID: account.id, code: codes.current, secondsRemaining: period - elapsed, period: period,
                nextCode: codes.next)
        }
    }
}

/// Each account's codes for the current, next and (once made ahead) following time step, and
/// its prepared key.
final class TimeStepCodeCache: @unchecked Sendable {
    private struct Entry {
        let secret: Secret
        let kind: OTPKind
        let algorithm: OTPAlgorithm
        let digits: Int
        let prepared: PreparedOTP
        var step: UInt64
        var current: String
        var next: String
        /// The code of `step + 2`, made ahead of time.
        var afterNext: String?

        /// Whether the entry was made for the account as it is now.
        func holds(_ account: Account) -> Bool {
            secret == account.secret && kind == account.kind && algorithm == account.algorithm && digits == account.digits
        }
    }

    // Guarded by `lock`.
    private var entries: [UUID: Entry] = [:]
    private let lock = NSLock()

    /// The codes of `step` and the next one. While `ahead` is above zero, an account whose
    /// codes are current also gets its code for the step after next, and `ahead` goes down.
    func codes(
        for account: Account, step: UInt64, ahead: inout Int, prepare: () -> PreparedOTP
    ) -> (current: String, next: String) {
        lock.withLock {
            if var entry = entries[account.id], entry.holds(account) {
                if entry.step != step {
                    let turned = entry.step &+ 1 == step
                    entry.current = turned ? entry.next : entry.prepared.code(counter: step)
                    entry.next = (turned ? entry.afterNext : nil) ?? entry.prepared.code(counter: step &+ 1)
                    entry.afterNext = nil
                    entry.step = step
                } else if entry.afterNext == nil, ahead > 0 {
                    entry.afterNext = entry.prepared.code(counter: step &+ 2)
                    ahead -= 1
                }
                entries[account.id] = entry
                return (entry.current, entry.next)
            }
            let prepared = prepare()
            let entry = Entry(
                secret: account.secret, kind: account.kind, algorithm: account.algorithm, digits: account.digits,
                prepared: prepared, step: step, current: prepared.code(counter: step),
                next: prepared.code(counter: step &+ 1))
            entries[account.id] = entry
            return (entry.current, entry.next)
        }
    }
}

extension Account {
    /// The HOTP counter, for counter-based accounts.
    public var counter: UInt64? {
        if case .hotp(let counter) = kind { counter } else { nil }
    }
}
