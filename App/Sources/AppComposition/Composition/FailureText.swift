import DataLayer
import Domain

/// The sentence the command line prints for an error. Inner layers' errors say what went wrong
/// in their own terms; what to type about it (a command, a flag, a variable) is the command
/// line's to say, and is added here.
package enum FailureText {
    public static func sentence(for error: any Error) -> String {
        let plain = String(describing: error)
        switch error {
        case VaultError.notInitialized:
            return "\(plain): create one with `tokens init`"
        case CompositionError.noVault(_, let phase):
            // The phase's own vault: `tokens init` alone makes REAL's.
            return "\(plain): create one with `tokens \(phase == .real ? "" : "--phase \(phase.rawValue) ")init`"
        case ImportError.unknownFormat:
            return "\(plain); if it is one of them, name it with --format"
        case ImportError.image:
            return "\(plain): convert it first, e.g. `convert FILE code.png` (ImageMagick), then `tokens import code.png`"
        case ImportError.passwordRequired:
            return "\(plain): give it with --password-file or TOKENS_IMPORT_PASSWORD (on a terminal it is asked)"
        default:
            return plain
        }
    }
}
