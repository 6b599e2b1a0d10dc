// swift-format-ignore-file: AlwaysUseLowerCamelCase
// (the DTO's properties are the file's own keys)

import Domain
import Foundation

/// Steam Desktop Authenticator's maFile: `shared_secret` (Base64) is the TOTP secret. The
/// revocation code and other Steam keys are not imported (reported).
enum SteamMaFileDecoder {
    struct MaFileDTO: Decodable {
        var shared_secret: String
        var account_name: String?
        var revocation_code: String?
        var identity_secret: String?
    }

    static func decode(_ data: Data) throws -> DecodedImport {
        let json = try InteropJSON.object(data, .steam)
        var files: [(String, Any)] = []
        if let object = json as? [String: Any], let accounts = object["accounts"] as? [String: Any] {
            files = accounts.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        } else {
            files = [("maFile", json)]
        }
        var collector = InteropCollector()
        for (index, (_, value)) in files.enumerated() {
            guard let body = try? JSONSerialization.data(withJSONObject: value),
                let file = try? JSONDecoder().decode(MaFileDTO.self, from: body)
            else {
                collector.drop("account \(index + 1)", reason: "not a Steam maFile entry (no shared_secret)")
                continue
            }
            if file.revocation_code != nil { collector.lose("revocation code (keep it somewhere safe)") }
            if file.identity_secret != nil { collector.lose("identity secret (trade confirmations)") }
            guard let secret = Data(base64Encoded: file.shared_secret) else {
                collector.drop("account \(index + 1)", reason: "secret: shared_secret is not Base64")
                continue
            }
            var fields = InteropCollector.Fields()
            fields.issuer = "Steam"
            fields.name = file.account_name ?? ""
            fields.secretBytes = Array(secret)
            fields.kind = .steam
            collector.add(fields, position: "account \(index + 1)")
        }
        return collector.result(.steam)
    }
}
