import AppConfiguration
import DataLayer
import Domain
import Foundation
import Logging

/// The composition root: turns settings into the container of their phase.
public enum AppComposer {
    /// Builds the phase's container. ALPHA and REAL unlock their vault first with the given
    /// passphrase; a missing vault is an error, never a silent fall back to DEV.
    public static func makeContainer(
        for settings: AppSettings, clock: (any WallClock)? = nil, passphrase source: PassphraseSource = .none
    ) throws -> any AppContainer {
        try makeContainer(for: settings, clock: clock, passphrase: source) { throw CompositionError.noPassphrase }
    }

    /// Builds the phase's container. ALPHA and REAL open their vault with the key `tokens unlock`
    /// kept (`kept`), else with the passphrase `source` gives, else the one `ask` (the terminal)
    /// gets. Where the keyring cannot be used, `notice` hears one line before `ask` is called.
    package static func makeContainer(
        for settings: AppSettings, clock: (any WallClock)? = nil, passphrase source: PassphraseSource = .none,
        kept: KeptUnlock? = nil, notice: (String) -> Void = { _ in }, asking ask: () throws -> Passphrase
    ) throws -> any AppContainer {
        guard settings.phase.value.usesVault, let path = settings.vaultPath?.value else {
            return DevContainer(clock: clock)
        }
        guard FileManager.default.fileExists(atPath: path) else { throw CompositionError.noVault(path: path, phase: settings.phase.value) }
        ProcessHardening.forbidDumpsAndTracing()
        let logger = Logger(label: "tokens.composition")
        let started = ContinuousClock.now
        var keyringFailure: (any Error)?
        if let kept {
            do {
                if let vault = try kept.open() {
                    logger.debug("opened the \(settings.phase.value.rawValue) vault with its kept key in \(ContinuousClock.now - started)")
                    return VaultContainer(phase: settings.phase.value, vault: vault, clock: clock)
                }
            } catch let error as VaultKeyringError {
                keyringFailure = error
                logger.debug("\(error)")
            }
        }
        let passphrase: Passphrase
        if let given = try source.given() {
            passphrase = given
        } else {
            if let keyringFailure { notice("notice: \(keyringFailure); asking for the passphrase") }
            passphrase = try ask()
        }
        let vault = try Vault.open(at: path, passphrase: passphrase)
        logger.debug("unlocked the \(settings.phase.value.rawValue) vault at \(path) in \(ContinuousClock.now - started)")
        return VaultContainer(phase: settings.phase.value, vault: vault, clock: clock)
    }

    /// The vault format this build writes (and the newest it reads), for `tokens --version`.
    public static var vaultFormatVersion: Int { Vault.formatVersion }

    /// Creates the phase's vault with the given passphrase. DEV has none.
    public static func createVault(for settings: AppSettings, passphrase source: PassphraseSource) throws -> String {
        guard let passphrase = try source.given() else { throw CompositionError.noPassphrase }
        return try createVault(for: settings, passphrase: passphrase)
    }

    /// Creates the phase's vault. DEV has none.
    package static func createVault(for settings: AppSettings, passphrase: Passphrase) throws -> String {
        guard settings.phase.value.usesVault, let path = settings.vaultPath?.value else {
            throw CompositionError.noVaultInDev
        }
        ProcessHardening.forbidDumpsAndTracing()
        try Vault.create(at: path, passphrase: passphrase)
        return path
    }
}

/// Why App could not do what was asked of a phase.
public enum CompositionError: Error, Equatable, Sendable, CustomStringConvertible {
    case noVaultInDev
    case noPassphrase
    /// The phase's vault is not there yet (`tokens init` makes it, with the phase).
    case noVault(path: String, phase: Phase)

    public var description: String {
        switch self {
        case .noPassphrase: "no passphrase was given to unlock the vault"
        case .noVault(let path, _): "no vault at \(path)"
        case .noVaultInDev: "the DEV phase keeps its demo accounts in memory and has no vault; use --phase alpha or real"
        }
    }
}

extension AppComposer {
    /// The OTP engine with the real HMAC, for codes that touch no store (`tokens code --uri`).
    public static func makeOTPGenerator() -> OTPGenerator {
        OTPGenerator(hmac: SwiftCryptoHMAC())
    }

    /// Every import and export format (Data's Interop).
    public static func makeInteropCodec() -> InteropCodec { InteropCodec(pictures: makeQRCodeReader()) }

    /// The import decoder alone: it needs no vault, so a command can decode while the vault is
    /// being unlocked.
    public static func makeImportDecoder() -> any AccountImportDecoder { makeInteropCodec() }

    /// QR codes (Data's Swift encoder).
    public static func makeQRCodeEncoder() -> any QRCodeEncoder { QREncoder() }

    /// QR codes read from pictures (Data's zbar reader, linked into the binary).
    public static func makeQRCodeReader() -> any QRCodeReader { QRPictureReader() }

    /// The system's clock.
    public static func makeClock() -> any WallClock { SystemClock() }
}
