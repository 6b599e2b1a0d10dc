import Foundation

/// What a record written by another version of Tokens holds that this one does not know: its
/// fields, and its key's attributes, kept as they came (JSON text) and sent back with the record
/// (as protobuf keeps unknown fields), so a machine on an older version loses nothing a newer
/// one wrote when it edits the same account.
public struct SyncUnknownParts: Hashable, Sendable {
    /// A field this version does not know: its JSON, and its stamp when it has the shape every
    /// field has (`{"v": …, "at": stamp}`).
    public struct Field: Hashable, Sendable {
        public let json: String
        public let changedAt: HybridTimestamp?

        public init(json: String, changedAt: HybridTimestamp?) {
            self.json = json
            self.changedAt = changedAt
        }
    }

    public var fields: [String: Field]
    /// The key's attributes this version does not know (name → JSON), and the stamp of the key
    /// they came with: they belong to that key and go when it is replaced.
    public var keyAttributes: [String: String]
    public var keyStamp: HybridTimestamp?

    public init(fields: [String: Field] = [:], keyAttributes: [String: String] = [:], keyStamp: HybridTimestamp? = nil) {
        self.fields = fields
        self.keyAttributes = keyAttributes
        self.keyStamp = keyAttributes.isEmpty ? nil : keyStamp
    }

    /// Nothing unknown: a record this version wrote whole.
    public static let none = SyncUnknownParts()

    /// The key attributes that still belong to the key stamped `key`.
    public func keyAttributes(of key: HybridTimestamp) -> [String: String] { keyStamp == key ? keyAttributes : [:] }

    /// Two sides' parts as one, for the merged record whose key is stamped `key`: every field of
    /// either, the later stamp winning (then the larger JSON, so both orders give the same); the
    /// key attributes of whichever side holds that key.
    public static func merged(_ a: Self, _ b: Self, key: HybridTimestamp) -> Self {
        var fields = a.fields
        for (name, field) in b.fields {
            guard let other = fields[name] else {
                fields[name] = field
                continue
            }
            if precedes(other, field) { fields[name] = field }
        }
        let (mine, theirs) = (a.keyAttributes(of: key), b.keyAttributes(of: key))
        let attributes = mine.isEmpty || (!theirs.isEmpty && text(of: mine) < text(of: theirs)) ? theirs : mine
        return SyncUnknownParts(fields: fields, keyAttributes: attributes, keyStamp: key)
    }

    /// The attributes as one text, in name order, to choose between two alike on both sides.
    private static func text(of attributes: [String: String]) -> String {
        attributes.keys.sorted().map { "\($0)=\(attributes[$0]!)" }.joined(separator: "\n")
    }

    private static func precedes(_ a: Field, _ b: Field) -> Bool {
        switch (a.changedAt, b.changedAt) {
        case (let x?, let y?) where x != y: x < y
        case (nil, _?): true
        case (_?, nil): false
        default: a.json < b.json
        }
    }
}
