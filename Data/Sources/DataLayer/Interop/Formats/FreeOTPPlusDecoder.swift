import Domain
import Foundation

/// FreeOTP+ backups: `tokens` with secrets as signed byte arrays. FreeOTP stores an HOTP counter
/// one lower than the account's; the file's value is imported as it is.
enum FreeOTPPlusDecoder {
    struct BackupDTO: Decodable {
        struct Token: Decodable {
            var algo: String?
            var counter: UInt64?
            var digits: Int?
            var issuerExt: String?
            var issuerInt: String?
            var label: String?
            var period: Int?
            var secret: [Int]
            var type: String?
            var image: String?
        }

        var tokens: [Token]
    }

    static func decode(_ data: Data) throws -> DecodedImport {
        let backup = try InteropJSON.decode(BackupDTO.self, from: data, .freeOTPPlus)
        var collector = InteropCollector()
        for (index, token) in backup.tokens.enumerated() {
            if token.image != nil { collector.lose("image") }
            guard token.secret.allSatisfy({ (-128...255).contains($0) }) else {
                collector.drop("token \(index + 1)", reason: "secret: bytes out of range")
                continue
            }
            var fields = InteropCollector.Fields()
            fields.issuer = token.issuerExt ?? token.issuerInt ?? ""
            fields.name = token.label ?? ""
            fields.secretBytes = token.secret.map { UInt8(truncatingIfNeeded: $0) }
            fields.kind = .init(text: token.type ?? "TOTP")
            fields.algorithm = .init(text: token.algo ?? "SHA1")
            fields.digits = token.digits ?? 6
            fields.period = token.period ?? OTPKind.defaultPeriod
            fields.counter = token.counter ?? 0
            collector.add(fields, position: "token \(index + 1)")
        }
        return collector.result(.freeOTPPlus)
    }
}
