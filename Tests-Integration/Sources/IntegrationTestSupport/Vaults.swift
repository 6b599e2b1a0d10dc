import Foundation

/// Helpers for tests of the ALPHA and REAL phases through the binary.
public enum Vaults {
    public static let passphrase = "correct horse battery staple"

    /// The environment that unlocks a test vault.
    public static func environment(_ passphrase: String = Vaults.passphrase) -> [String: String] {
        ["TOKENS_PASSPHRASE": passphrase]
    }

    /// The vault file of a phase inside a temporary home.
    public static func path(phase: String, home: URL) -> URL {
        home.appendingPathComponent("data/\(phase == "alpha" ? "tokens-alpha" : "tokens")/vault.sqlite")
    }

    /// Every file in the folder and in its folders (the backups), by path relative to it, and its bytes.
    public static func snapshot(_ folder: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.subpathsOfDirectory(atPath: folder.path) {
            var isFolder: ObjCBool = false
            let url = folder.appendingPathComponent(name)
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue else { continue }
            files[name] = try Data(contentsOf: url)
        }
        return files
    }

    /// A Base32 secret of its own for each number (16 characters, 10 bytes): accounts with
    /// the same secret are one account to `add` and `import`.
    public static func secret(_ number: Int) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")
        var digits = ""
        var value = number
        for _ in 0..<8 {
            digits.append(alphabet[value & 31])
            value >>= 5
        }
        return "GEZDGNBV" + digits
    }

    /// A Key URI for a test account.
    public static func uri(issuer: String, account: String = "me", secret: String = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ") -> String {
        "otpauth://totp/\(issuer):\(account)?secret=\(secret)&issuer=\(issuer)"
    }
}
