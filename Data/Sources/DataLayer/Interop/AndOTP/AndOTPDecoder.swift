import Crypto
import CryptoExtras
import Domain
import Foundation

/// andOTP backups: a JSON array, or the new encrypted format (a 4-byte PBKDF2-HMAC-SHA1 round
/// count, 12-byte salt, 12-byte nonce, then AES-256-GCM ciphertext and tag).
enum AndOTPDecoder {
    struct EntryDTO: Decodable {
        var secret: String
        var issuer: String?
        var label: String?
        var digits: Int?
        var type: String?
        var algorithm: String?
        var period: Int?
        var counter: UInt64?
        var tags: [String]?
        var thumbnail: String?
    }

    static func decode(_ data: Data, password: String?) throws -> DecodedImport {
        let json: Data
        let trimmed = data.drop { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
        if trimmed.first == UInt8(ascii: "[") {
            json = data
        } else {
            json = try decrypt(Array(data), password: password)
        }
        var plaintext = json
        defer { plaintext.wipe() }
        let entries = try InteropJSON.decode([EntryDTO].self, from: plaintext, .andOTP)
        var collector = InteropCollector()
        for (index, entry) in entries.enumerated() {
            if let thumbnail = entry.thumbnail, thumbnail != "Default" { collector.lose("thumbnail") }
            var fields = InteropCollector.Fields()
            fields.issuer = entry.issuer ?? ""
            fields.name = entry.label ?? ""
            fields.secretBase32 = entry.secret
            fields.kind = .init(text: entry.type ?? "TOTP")
            fields.algorithm = .init(text: entry.algorithm ?? "SHA1")
            fields.digits = entry.digits ?? 6
            fields.period = entry.period ?? OTPKind.defaultPeriod
            fields.counter = entry.counter ?? 0
            fields.groups = entry.tags ?? []
            collector.add(fields, position: "entry \(index + 1)")
        }
        return collector.result(.andOTP)
    }

    private static func decrypt(_ bytes: [UInt8], password: String?) throws -> Data {
        guard bytes.count > 4 + 12 + 12 + 16 else { throw ImportError.malformed(.andOTP, "the file is too short") }
        guard let password else { throw ImportError.passwordRequired(.andOTP) }
        let rounds = Int(bytes[0]) << 24 | Int(bytes[1]) << 16 | Int(bytes[2]) << 8 | Int(bytes[3])
        guard let key = try InteropCrypto.pbkdf2(password, salt: Array(bytes[4..<16]), rounds: rounds, hash: .insecureSHA1, format: .andOTP)
        else {
            throw ImportError.malformed(.andOTP, "it is neither a JSON backup nor an encrypted one")
        }
        guard let plaintext = InteropCrypto.openGCM(key: key, nonce: Array(bytes[16..<28]), sealed: Array(bytes[28...])) else {
            throw ImportError.wrongPassword(.andOTP)
        }
        return plaintext
    }
}
