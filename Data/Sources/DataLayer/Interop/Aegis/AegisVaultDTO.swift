// swift-format-ignore-file: AlwaysUseLowerCamelCase
// (the properties are the file's own keys)

/// Aegis's vault file (docs/vault.md in beemdevelopment/Aegis), as read and written here.
struct AegisVaultDTO: Codable {
    struct Header: Codable {
        var slots: [Slot]?
        var params: Params?
    }

    /// A key slot: type 1 is a password slot (scrypt), type 2 biometric.
    struct Slot: Codable {
        var type: Int
        var uuid: String
        var key: String
        var key_params: Params
        var n: Int?
        var r: Int?
        var p: Int?
        var salt: String?
        var repaired: Bool?
        var is_backup: Bool?
    }

    /// AES-GCM parameters, hex.
    struct Params: Codable {
        var nonce: String
        var tag: String
    }

    var version: Int
    var header: Header
    /// The database: an object when plain, a Base64 string when encrypted.
    var db: DatabaseOrCiphertext
}

/// Aegis's `db` field: plain object or encrypted Base64 string.
enum DatabaseOrCiphertext: Codable {
    case plain(AegisDatabaseDTO)
    case encrypted(String)

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self) {
            self = .encrypted(text)
        } else {
            self = .plain(try container.decode(AegisDatabaseDTO.self))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .plain(let database): try container.encode(database)
        case .encrypted(let text): try container.encode(text)
        }
    }
}

/// The entries of an Aegis vault.
struct AegisDatabaseDTO: Codable {
    struct Entry: Codable {
        var type: String
        var uuid: String?
        var name: String?
        var issuer: String?
        var note: String?
        var favorite: Bool?
        var icon: String?
        var group: String?
        var groups: [String]?
        var info: Info
    }

    struct Info: Codable {
        var secret: String
        var algo: String?
        var digits: Int?
        var period: Int?
        var counter: UInt64?
        var pin: String?
    }

    struct Group: Codable {
        var uuid: String
        var name: String
    }

    var version: Int
    var entries: [Entry]
    var groups: [Group]?
}
