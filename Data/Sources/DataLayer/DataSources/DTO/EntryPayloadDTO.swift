/// What is encrypted in one vault entry: every field of an account but its id and timestamps.
/// Versioned by the vault format; mapped to and from Domain's Account in EntryPayloadDTO+Mapping.
struct EntryPayloadDTO: Codable, Equatable {
    /// The account's kind, as stored.
    struct KindDTO: Codable, Equatable {
        var type: String
        var period: Int?
        var counter: UInt64?
    }

    var issuer: String
    var account: String
    /// The secret's bytes, Base64.
    var secret: String
    var kind: KindDTO
    var algorithm: String
    var digits: Int
    var note: String
    var groups: [String]
    var favorite: Bool
}
