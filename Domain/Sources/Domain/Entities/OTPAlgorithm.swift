/// The HMAC hash function an account's codes are computed with.
public enum OTPAlgorithm: String, CaseIterable, Hashable, Sendable, Codable {
    case sha1 = "SHA1"
    case sha256 = "SHA256"
    case sha512 = "SHA512"

    /// Parses "SHA1", "sha256", "SHA-512" and the like.
    public init?(name: String) {
        let normalized = name.uppercased().replacingOccurrences(of: "-", with: "")
        guard let algorithm = OTPAlgorithm(rawValue: normalized) else { return nil }
        self = algorithm
    }
}
