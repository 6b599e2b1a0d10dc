import Foundation

/// What makes an account's codes, apart from an HOTP counter: its secret, kind, algorithm and
/// digits. Changed on two machines at once, neither version may be dropped.
public struct KeyMaterial: Hashable, Sendable {
    /// OTPKind without the HOTP counter (which merges on its own: the larger wins).
    public enum Kind: Hashable, Sendable {
        case totp(period: Int)
        case hotp
        case steam
    }

    public let secret: Secret
    public let kind: Kind
    public let algorithm: OTPAlgorithm
    public let digits: Int

    public init(secret: Secret, kind: Kind, algorithm: OTPAlgorithm, digits: Int) {
        self.secret = secret
        self.kind = kind
        self.algorithm = algorithm
        self.digits = digits
    }
}

/// One account as sync sees it (what is encrypted for the server): every field with the
/// reading of its last change, so a three-way merge can tell who changed what (see SyncMerge).
public struct SyncRecord: Hashable, Sendable, Identifiable {
    public let id: UUID
    public var key: Stamped<KeyMaterial>
    /// The stamps of the keys this key replaced, directly or by winning a merge (the other kept
    /// as a copy), and the other stamp this same key had on a machine that added it too (a fold
    /// keeps the earlier): latest first, at most `keyHistoryLimit` (empty: the entry's first
    /// key, or a build that did not record it). Tells a key changed after seeing another from
    /// one changed beside it, when a server restored from a backup or healed over garbage serves
    /// a version this machine never saw.
    public var keyHistory: [HybridTimestamp]
    public static let keyHistoryLimit = 16
    /// The HOTP counter (0 for time-based kinds).
    public var counter: UInt64
    public var issuer: Stamped<String>
    public var name: Stamped<String>
    public var note: Stamped<String>
    public var isFavorite: Stamped<Bool>
    public var groups: Stamped<Set<String>>
    public var position: Stamped<FractionalPosition>
    /// A deleted entry stays as a tombstone until the server forgets it.
    public var isDeleted: Stamped<Bool>
    /// What another version of Tokens wrote that this one does not know, kept and sent back.
    public var unknown: SyncUnknownParts

    public init(
        id: UUID, key: Stamped<KeyMaterial>, counter: UInt64, issuer: Stamped<String>, name: Stamped<String>,
        note: Stamped<String>, isFavorite: Stamped<Bool>, groups: Stamped<Set<String>>,
        position: Stamped<FractionalPosition>, isDeleted: Stamped<Bool>, keyHistory: [HybridTimestamp] = [],
        unknown: SyncUnknownParts = .none
    ) {
        self.id = id
        self.key = key
        self.keyHistory = keyHistory
        self.counter = counter
        self.issuer = issuer
        self.name = name
        self.note = note
        self.isFavorite = isFavorite
        self.groups = groups
        self.position = position
        self.isDeleted = isDeleted
        self.unknown = unknown
    }
}

extension SyncRecord {
    /// `stamps` as a key history: distinct, latest first, at most `keyHistoryLimit`.
    static func keyHistory(_ stamps: some Sequence<HybridTimestamp>) -> [HybridTimestamp] {
        Array(Set(stamps).sorted(by: >).prefix(keyHistoryLimit))
    }
}
