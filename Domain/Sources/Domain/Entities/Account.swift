import Foundation

/// One one-time-password account: who it is for, its shared secret and how codes are made.
public struct Account: Identifiable, Hashable, Sendable {
    public let id: UUID
    public var issuer: String
    public var name: String
    public var secret: Secret
    public var kind: OTPKind
    public var algorithm: OTPAlgorithm
    public var digits: Int
    public var note: String
    public var isFavorite: Bool
    public var groups: [String]
    public var createdAt: Date
    public var updatedAt: Date

    public init(
        id: UUID,
        issuer: String,
        name: String,
        secret: Secret,
        kind: OTPKind,
        algorithm: OTPAlgorithm = .sha1,
        digits: Int = 6,
        note: String = "",
        isFavorite: Bool = false,
        groups: [String] = [],
        createdAt: Date,
        updatedAt: Date
    ) {
        self.id = id
        self.issuer = issuer
        self.name = name
        self.secret = secret
        self.kind = kind
        self.algorithm = algorithm
        self.digits = digits
        self.note = note
        self.isFavorite = isFavorite
        self.groups = groups
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// An account made of validated content.
    public init(id: UUID, spec: AccountSpec, note: String = "", groups: [String] = [], createdAt: Date) {
        self.init(
            id: id, issuer: spec.issuer, name: spec.name, secret: spec.secret, kind: spec.kind,
            algorithm: spec.algorithm, digits: spec.digits, note: note, groups: groups, createdAt: createdAt,
            updatedAt: createdAt)
    }

    /// The first 8 hex digits of the id, lower case: enough to name one account among thousands
    /// on the command line (every command taking QUERY accepts it, or any longer prefix).
    public var shortID: String { String(id.uuidString.lowercased().prefix(8)) }

    /// "Issuer (name)", or whichever of the two is present.
    public var displayName: String { Self.displayName(issuer: issuer, name: name) }

    /// "Issuer (name)", or whichever of the two is present.
    public static func displayName(issuer: String, name: String) -> String {
        switch (issuer.isEmpty, name.isEmpty) {
        case (false, false): "\(issuer) (\(name))"
        case (false, true): issuer
        default: name
        }
    }
}
