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

/// The GenerateCodes use case over the OTP engine: every call makes each time-based account's
/// codes for the time step of `date` and the one after. (A screen that asks every second keeps
/// them between calls: Presentation's `TimeStepCodeCache`.)
public struct DefaultGenerateCodesUseCase: GenerateCodesUseCase {
    private let generator: OTPGenerator

    public init(hmac: any HMACProvider) {
        self.generator = OTPGenerator(hmac: hmac)
    }

    public func execute(for accounts: [Account], at date: Date) -> [GeneratedCode] {
        accounts.map { generator.codes(for: $0, at: date) }
    }
}

extension Account {
    /// The HOTP counter, for counter-based accounts.
    public var counter: UInt64? {
        if case .hotp(let counter) = kind { counter } else { nil }
    }
}
