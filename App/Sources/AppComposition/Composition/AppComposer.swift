import DataLayer
import Domain

/// The composition root: turns settings into the container of their phase.
public enum AppComposer {
    /// Builds the phase's container. ALPHA and REAL need the vault and are refused until it
    /// exists: Tokens never falls back to DEV silently.
    public static func makeContainer(for settings: AppSettings, clock: (any WallClock)? = nil) throws -> any AppContainer {
        switch settings.phase.value {
        case .dev: DevContainer(clock: clock)
        case .alpha, .real: throw CompositionError.phaseNotAvailable(settings.phase.value, settings.phase.source)
        }
    }
}

/// Why App could not build a phase's graph.
public enum CompositionError: Error, Equatable, Sendable, CustomStringConvertible {
    case phaseNotAvailable(Phase, SettingSource)

    public var description: String {
        switch self {
        case .phaseNotAvailable(let phase, let source):
            "the \(phase.rawValue.uppercased()) phase (from \(source)) is not available yet: it needs the encrypted vault; use --phase dev for the demo"
        }
    }
}

extension AppComposer {
    /// The OTP engine with the real HMAC, for codes that touch no store (`tokens code --uri`).
    public static func makeOTPGenerator() -> OTPGenerator {
        OTPGenerator(hmac: SwiftCryptoHMAC())
    }

    /// Code generation with the real HMAC, for accounts that live in no store.
    public static func makeGenerateCodesUseCase() -> any GenerateCodesUseCase {
        DefaultGenerateCodesUseCase(hmac: SwiftCryptoHMAC())
    }

    /// The system's clock.
    public static func makeClock() -> any WallClock { SystemClock() }

    /// The system's secure randomness.
    public static func makeRandomSource() -> any RandomSource { SecureRandomSource() }
}
