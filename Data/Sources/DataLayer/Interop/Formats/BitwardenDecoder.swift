import Domain
import Foundation

/// Bitwarden's JSON export: the TOTP of each login item, as an otpauth URI, a `steam://SECRET`
/// or a bare Base32 secret. Items without a TOTP are password entries, counted, not imported.
enum BitwardenDecoder {
    struct ExportDTO: Decodable {
        struct Item: Decodable {
            struct Login: Decodable {
                var username: String?
                var totp: String?
            }

            var name: String?
            var notes: String?
            var favorite: Bool?
            var login: Login?
        }

        var encrypted: Bool?
        var items: [Item]
    }

    static func decode(_ data: Data) throws -> DecodedImport {
        let export = try InteropJSON.decode(ExportDTO.self, from: data, .bitwarden)
        guard export.encrypted != true else {
            throw ImportError.unsupported(.bitwarden, "encrypted exports; export as unencrypted JSON from Bitwarden")
        }
        var collector = InteropCollector()
        var withoutTOTP = 0
        for (index, item) in export.items.enumerated() {
            guard let totp = item.login?.totp?.trimmingCharacters(in: .whitespaces), !totp.isEmpty else {
                withoutTOTP += 1
                continue
            }
            let position = "item \(index + 1)"
            if totp.lowercased().hasPrefix("otpauth://") {
                collector.add(uri: totp, position: position, note: item.notes ?? "", isFavorite: item.favorite ?? false)
                continue
            }
            var fields = InteropCollector.Fields()
            fields.issuer = item.name ?? ""
            fields.name = item.login?.username ?? ""
            fields.note = item.notes ?? ""
            fields.isFavorite = item.favorite ?? false
            if totp.lowercased().hasPrefix("steam://") {
                fields.kind = .steam
                fields.secretBase32 = String(totp.dropFirst("steam://".count))
            } else {
                fields.secretBase32 = totp
            }
            collector.add(fields, position: position)
        }
        if withoutTOTP > 0 {
            collector.notice(
                "items without a TOTP", "\(withoutTOTP) password entr\(withoutTOTP == 1 ? "y" : "ies") skipped (not OTP accounts)")
        }
        return collector.result(.bitwarden)
    }
}
