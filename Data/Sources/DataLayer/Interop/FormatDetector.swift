import Domain
import Foundation

/// Tells an export's format from its content.
enum FormatDetector {
    static func detect(_ data: Data) -> ImportFormat? {
        guard let text = String(data: data, encoding: .utf8) else {
            // andOTP's encrypted backups are binary: a 4-byte iteration count, salt, nonce, ciphertext.
            return data.count > 44 ? .andOTP : nil
        }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.hasPrefix("{") || trimmed.hasPrefix("[") {
            return detectJSON(data)
        }
        let lines = trimmed.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
        if lines.contains(where: { $0.lowercased().hasPrefix("otpauth-migration://") }) { return .googleMigration }
        if lines.contains(where: { $0.lowercased().hasPrefix("otpauth://") }) {
            return lines.contains(where: { $0.contains("codeDisplay=") }) ? .ente : .keyURIs
        }
        return data.count > 44 && !text.contains("otpauth") ? .andOTP : nil
    }

    private static func detectJSON(_ data: Data) -> ImportFormat? {
        guard let json = try? JSONSerialization.jsonObject(with: data) else { return nil }
        if let array = json as? [[String: Any]] {
            return array.isEmpty || array[0]["secret"] != nil ? .andOTP : nil
        }
        guard let object = json as? [String: Any] else { return nil }
        if object["db"] != nil, object["header"] != nil { return .aegis }
        if object["schemaVersion"] != nil, object["services"] != nil || object["servicesEncrypted"] != nil { return .twoFAS }
        if object["tokens"] != nil, object["tokenOrder"] != nil || (object["tokens"] as? [[String: Any]])?.first?["issuerExt"] != nil {
            return .freeOTPPlus
        }
        if object["items"] != nil, object["encrypted"] != nil { return .bitwarden }
        if let entries = object["entries"] as? [[String: Any]], entries.isEmpty || entries[0]["content"] != nil { return .proton }
        if object["shared_secret"] != nil || object["accounts"] != nil { return .steam }
        return nil
    }
}
