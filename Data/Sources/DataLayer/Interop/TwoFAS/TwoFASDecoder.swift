import Crypto
import CryptoExtras
import Domain
import Foundation

/// 2FAS backups, plain and encrypted (PBKDF2-HMAC-SHA256, 10 000 rounds; AES-256-GCM;
/// `servicesEncrypted` = Base64 ciphertext+tag, salt and IV joined by ":").
enum TwoFASDecoder {
    static let rounds = 10_000

    static func decode(_ data: Data, password: String?) throws -> DecodedImport {
        let backup = try InteropJSON.decode(TwoFASBackupDTO.self, from: data, .twoFAS)
        if let version = backup.schemaVersion, version > 4 {
            throw ImportError.unsupported(.twoFAS, "schema version \(version)")
        }
        var services = backup.services ?? []
        if let encrypted = backup.servicesEncrypted, !encrypted.isEmpty {
            guard let password else { throw ImportError.passwordRequired(.twoFAS) }
            let parts = encrypted.split(separator: ":").map { Data(base64Encoded: String($0)) }
            guard parts.count >= 3, let sealed = parts[0], let salt = parts[1], let iv = parts[2] else {
                throw ImportError.malformed(.twoFAS, "servicesEncrypted is not three Base64 parts")
            }
            guard let key = try InteropCrypto.pbkdf2(password, salt: Array(salt), rounds: rounds, hash: .sha256, format: .twoFAS) else {
                throw ImportError.malformed(.twoFAS, "bad key derivation parameters")
            }
            guard var plaintext = InteropCrypto.openGCM(key: key, nonce: Array(iv), sealed: Array(sealed)) else {
                throw ImportError.wrongPassword(.twoFAS)
            }
            defer { plaintext.wipe() }
            services = try InteropJSON.decode([TwoFASBackupDTO.Service].self, from: plaintext, .twoFAS)
        }
        let groups = Dictionary((backup.groups ?? []).map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        var collector = InteropCollector()
        for (index, service) in services.enumerated() {
            if service.icon != nil { collector.lose("icon") }
            collector.add(service.fields(groups: groups), position: "service \(index + 1)")
        }
        return collector.result(.twoFAS)
    }
}
