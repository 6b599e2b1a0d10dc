/// One account read from another app's export, validated by Domain's rules.
public struct ImportedEntry: Hashable, Sendable {
    public let spec: AccountSpec
    public let note: String
    public let groups: [String]
    public let isFavorite: Bool

    public init(spec: AccountSpec, note: String = "", groups: [String] = [], isFavorite: Bool = false) {
        self.spec = spec
        self.note = note
        self.groups = groups
        self.isFavorite = isFavorite
    }

    /// "Issuer (account)" for reports.
    public var label: String { Account.displayName(issuer: spec.issuer, name: spec.name) }
}

/// Something an import could not bring over, and why: never dropped silently.
public struct DroppedItem: Hashable, Sendable, CustomStringConvertible {
    /// What was dropped: an entry ("entry 3: Foo") or a field ("Deno (Mason): icon").
    public let item: String
    public let reason: String

    public init(_ item: String, reason: String) {
        self.item = item
        self.reason = reason
    }

    public var description: String { "\(item): \(reason)" }
}

/// What a decoder read from a file, before it is compared with the accounts already kept.
public struct DecodedImport: Sendable {
    public let format: ImportFormat
    public let entries: [ImportedEntry]
    /// Entries that could not be imported.
    public let dropped: [DroppedItem]
    /// Fields or details that were lost or assumed on the way.
    public let notices: [DroppedItem]

    public init(format: ImportFormat, entries: [ImportedEntry], dropped: [DroppedItem] = [], notices: [DroppedItem] = []) {
        self.format = format
        self.entries = entries
        self.dropped = dropped
        self.notices = notices
    }
}
