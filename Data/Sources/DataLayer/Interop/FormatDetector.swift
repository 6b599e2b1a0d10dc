import Domain
import Foundation

/// Guesses an export's format from its content, reading bytes, not Strings, so that a large
/// file of anything is classified in one linear pass.
enum FormatDetector {
    static func detect(_ data: Data) -> ImportFormat? {
        try? recognise(data)
    }

    /// The format, by its real signature; `nil` when the content is none Tokens reads, and an
    /// error naming what the file looks like when it is a picture or another known kind of file.
    static func recognise(_ data: Data) throws(ImportError) -> ImportFormat? {
        if isAndOTPEncrypted(data) { return .andOTP }
        if let signature = FileSignature.match(data) {
            throw signature.isImage ? .image(kind: signature.name) : .notAnExport(kind: signature.name)
        }
        guard String(data: data, encoding: .utf8) != nil else { return nil }
        guard let first = data.first(where: { !ByteLines.isWhitespace($0) }) else { return nil }
        if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") {
            return detectJSON(data)
        }
        var migration = false
        var uris = false
        var ente = false
        for line in ByteLines.content(of: data) {
            if hasPrefix(line, "otpauth-migration://") {
                migration = true
            } else if hasPrefix(line, "otpauth://") {
                uris = true
                ente = ente || ByteLines.contains(line, "codeDisplay=")
            }
        }
        if migration { return .googleMigration }
        if uris { return ente ? .ente : .keyURIs }
        return nil
    }

    /// andOTP's encrypted backup: binary, a big-endian PBKDF2 iteration count (andOTP writes
    /// 140 000 to 160 000; 100 000 to 1 000 000 is accepted), a 12-byte salt, a 12-byte nonce,
    /// then AES-GCM ciphertext and tag.
    static func isAndOTPEncrypted(_ data: Data) -> Bool {
        guard data.count > 4 + 12 + 12 + 16 else { return false }
        let bytes = data.prefix(4).reduce(0) { $0 << 8 | Int($1) }
        return (100_000...1_000_000).contains(bytes) && String(data: data, encoding: .utf8) == nil
    }

    /// Whether `line` starts with the ASCII `prefix`, ignoring case.
    static func hasPrefix(_ line: Data, _ prefix: String) -> Bool {
        let prefix = prefix.utf8
        guard line.count >= prefix.count else { return false }
        return zip(line, prefix).allSatisfy { byte, expected in lowercased(byte) == lowercased(expected) }
    }

    static func lowercased(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
    }

    /// JSON formats by their keys, read with a decoder that keeps only keys: a full object tree
    /// (JSONSerialization) of a 10 000-entry export took 50 MB and a quarter of a second.
    private static func detectJSON(_ data: Data) -> ImportFormat? {
        guard let shape = try? JSONDecoder().decode(JSONShape.self, from: data) else { return nil }
        if shape.isArray {
            return shape.firstElementKeys.map { $0.isEmpty || $0.contains("secret") } == true ? .andOTP : nil
        }
        let keys = shape.keys
        if keys.contains("db"), keys.contains("header") { return .aegis }
        if keys.contains("schemaVersion"), keys.contains("services") || keys.contains("servicesEncrypted") { return .twoFAS }
        if keys.contains("tokens"), keys.contains("tokenOrder") || shape.firstTokenKeys?.contains("issuerExt") == true {
            return .freeOTPPlus
        }
        if keys.contains("items"), keys.contains("encrypted") { return .bitwarden }
        if let entries = shape.firstEntryKeys, entries.isEmpty || entries.contains("content") { return .proton }
        if keys.contains("shared_secret") || keys.contains("accounts") { return .steam }
        return nil
    }
}

/// The keys of a JSON document's top level, and of the first element of the arrays detection
/// looks into (an empty set for an empty array; nil where it is not an array of objects).
private struct JSONShape: Decodable {
    var isArray = false
    var keys: Set<String> = []
    var firstElementKeys: Set<String>?
    var firstTokenKeys: Set<String>?
    var firstEntryKeys: Set<String>?

    init(from decoder: any Decoder) throws {
        if let object = try? decoder.container(keyedBy: AnyKey.self) {
            keys = Set(object.allKeys.map(\.stringValue))
            firstTokenKeys = Self.firstKeys(object, "tokens")
            firstEntryKeys = Self.firstKeys(object, "entries")
        } else {
            isArray = true
            var array = try decoder.unkeyedContainer()
            firstElementKeys = array.isAtEnd ? [] : (try? array.decode(Keys.self))?.keys
        }
    }

    private static func firstKeys(_ object: KeyedDecodingContainer<AnyKey>, _ name: String) -> Set<String>? {
        guard var array = try? object.nestedUnkeyedContainer(forKey: AnyKey(stringValue: name)) else { return nil }
        return array.isAtEnd ? [] : (try? array.decode(Keys.self))?.keys
    }

    /// An object's keys, nothing else.
    struct Keys: Decodable {
        let keys: Set<String>
        init(from decoder: any Decoder) throws {
            keys = Set(try decoder.container(keyedBy: AnyKey.self).allKeys.map(\.stringValue))
        }
    }

    struct AnyKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
