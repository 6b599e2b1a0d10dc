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
/// every second, but each code changes only once a period.
public struct DefaultGenerateCodesUseCase: GenerateCodesUseCase {
    private let generator: OTPGenerator
    private let cache = TimeStepCodeCache()

    public init(hmac: any HMACProvider) {
        self.generator = OTPGenerator(hmac: hmac)
    }

    public func execute(for accounts: [Account], at date: Date) -> [GeneratedCode] {
        accounts.map { account in
            guard let period = account.kind.period else {
                return GeneratedCode(
                    accountID: account.id, code: nil, secondsRemaining: nil, period: nil, nextCode: nil,
                    counter: account.counter)
            }
            let step = OTPGenerator.timeStep(at: date, period: period)
            let elapsed = Int(UInt64(max(0, date.timeIntervalSince1970)) % UInt64(period))
            let codes = cache.codes(for: account, step: step) {
                let prepared = generator.prepared(for: account)
                return (prepared.code(counter: step), prepared.code(counter: step &+ 1))
            }
            return GeneratedCode(
                accountID: account.id, code: codes.current, secondsRemaining: period - elapsed, period: period,
                nextCode: codes.next)
        }
    }
}

/// The current and next code of each account for one time step.
final class TimeStepCodeCache: @unchecked Sendable {
    private struct Entry {
        let secret: Secret
        let kind: OTPKind
        let algorithm: OTPAlgorithm
        let digits: Int
        let step: UInt64
        let current: String
        let next: String
    }

    // Guarded by `lock`.
    private var entries: [UUID: Entry] = [:]
    private let lock = NSLock()

    func codes(
        for account: Account, step: UInt64, make: () -> (current: String, next: String)
    ) -> (current: String, next: String) {
        if let entry = lock.withLock({ entries[account.id] }), entry.step == step, entry.secret == account.secret,
            entry.kind == account.kind, entry.algorithm == account.algorithm, entry.digits == account.digits
        {
            return (entry.current, entry.next)
        }
        let made = make()
        lock.withLock {
            entries[account.id] = Entry(
                secret: account.secret, kind: account.kind, algorithm: account.algorithm, digits: account.digits,
                step: step, current: made.current, next: made.next)
        }
        return made
    }
}

extension Account {
    /// The HOTP counter, for counter-based accounts.
    public var counter: UInt64? {
        if case .hotp(let counter) = kind { counter } else { nil }
    }
}
