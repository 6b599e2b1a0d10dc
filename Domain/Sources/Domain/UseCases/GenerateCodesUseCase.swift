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

/// The GenerateCodes use case over the OTP engine.
public struct DefaultGenerateCodesUseCase: GenerateCodesUseCase {
    private let generator: OTPGenerator

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
            let prepared = generator.prepared(for: account)
            return GeneratedCode(
                accountID: account.id,
                code: prepared.code(counter: step),
                secondsRemaining: period - elapsed,
                period: period,
                nextCode: prepared.code(counter: step &+ 1)
            )
        }
    }
}

extension Account {
    /// The HOTP counter, for counter-based accounts.
    public var counter: UInt64? {
        if case .hotp(let counter) = kind { counter } else { nil }
    }
}
