/// The export formats of other authenticators that Tokens reads.
public enum ImportFormat: String, CaseIterable, Sendable, Codable {
    case keyURIs = "otpauth"
    case googleMigration = "google"
    case aegis
    case twoFAS = "2fas"
    case ente
    case andOTP = "andotp"
    case freeOTPPlus = "freeotp"
    case bitwarden
    case proton
    case steam

    /// The name people know the format by.
    public var displayName: String {
        switch self {
        case .keyURIs: "otpauth:// URI list"
        case .googleMigration: "Google Authenticator export"
        case .aegis: "Aegis vault"
        case .twoFAS: "2FAS backup"
        case .ente: "Ente Auth export"
        case .andOTP: "andOTP backup"
        case .freeOTPPlus: "FreeOTP+ backup"
        case .bitwarden: "Bitwarden export"
        case .proton: "Proton Authenticator export"
        case .steam: "Steam Desktop Authenticator maFile"
        }
    }
}

/// The formats Tokens writes.
public enum ExportFormat: String, CaseIterable, Sendable, Codable {
    case keyURIs = "otpauth"
    case aegis
    case aegisEncrypted = "aegis-encrypted"
    case googleMigration = "google"

    /// Whether the output holds secrets in the clear.
    public var isPlaintext: Bool { self != .aegisEncrypted }
}
