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
/// every second, but each code changes only once a period. When the step turns, the code that
/// was next becomes current, so only the new next code is made, with the key already prepared.
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
            let codes = cache.codes(for: account, step: step) { generator.prepared(for: account) }
            return GeneratedCode(
                accountID: account.id, code: codes.current, secondsRemaining: period - elapsed, period: period,
                nextCode: codes.next)
        }
    }
}

/// The current and next code of each account for one time step, and the account's prepared key.
final class TimeStepCodeCache: @unchecked Sendable {
    private struct Entry {
        let secret: Secret
        let kind: OTPKind
        let algorithm: OTPAlgorithm
        let digits: Int
        let prepared: PreparedOTP
        let step: UInt64
        let current: String
        let next: String

        /// Whether the entry was made for the account as it is now.
        func holds(_ account: Account) -> Bool {
            secret == account.secret && kind == account.kind && algorithm == account.algorithm && digits == account.digits
        }
    }

    // Guarded by `lock`.
    private var entries: [UUID: Entry] = [:]
    private let lock = NSLock()

    func codes(for account: Account, step: UInt64, prepare: () -> PreparedOTP) -> (current: String, next: String) {
        let cached = lock.withLock { entries[account.id] }.flatMap { $0.holds(account) ? $0 : nil }
        if let cached, cached.step == step { return (cached.current, cached.next) }
        let prepared = cached?.prepared ?? prepare()
        // The step just turned: the code that was next is current now.
        let current = cached.flatMap { $0.step &+ 1 == step ? $0.next : nil } ?? prepared.code(counter: step)
        let next = prepared.code(counter: step &+ 1)
        lock.withLock {
            entries[account.id] = Entry(
                secret: account.secret, kind: account.kind, algorithm: account.algorithm, digits: account.digits,
                prepared: prepared, step: step, current: current, next: next)
        }
        return (current, next)
    }
}

extension Account {
    /// The HOTP counter, for counter-based accounts.
    public var counter: UInt64? {
        if case .hotp(let counter) = kind { counter } else { nil }
    }
}
