import Foundation

/// A field of a sync record, as the user is told what changed (`tokens sync --dry-run`, `tokens
/// history`): the secret is named, never shown.
public enum SyncField: String, CaseIterable, Hashable, Sendable {
    /// The secret, kind, algorithm or digits.
    case secret
    case counter, issuer, name, note, favorite, groups, position, deleted

    /// The reading of the field's last change in `record`; nil for the HOTP counter (it has none).
    public func stamp(in record: SyncRecord) -> HybridTimestamp? {
        switch self {
        case .secret: record.key.changedAt
        case .counter: nil
        case .issuer: record.issuer.changedAt
        case .name: record.name.changedAt
        case .note: record.note.changedAt
        case .favorite: record.isFavorite.changedAt
        case .groups: record.groups.changedAt
        case .position: record.position.changedAt
        case .deleted: record.isDeleted.changedAt
        }
    }

    /// The fields whose values differ (a stamp alone moving is no change a user sees).
    public static func valuesChanged(from old: SyncRecord, to new: SyncRecord) -> [SyncField] {
        allCases.filter { field in
            switch field {
            case .secret: old.key.value != new.key.value
            case .counter: old.counter != new.counter
            case .issuer: old.issuer.value != new.issuer.value
            case .name: old.name.value != new.name.value
            case .note: old.note.value != new.note.value
            case .favorite: old.isFavorite.value != new.isFavorite.value
            case .groups: old.groups.value != new.groups.value
            case .position: old.position.value != new.position.value
            case .deleted: old.isDeleted.value != new.isDeleted.value
            }
        }
    }

    /// The fields written from `earlier` to `later`: a new stamp, or (the counter) a new value.
    public static func written(from earlier: SyncRecord, to later: SyncRecord) -> [SyncField] {
        allCases.filter { field in
            guard let before = field.stamp(in: earlier), let after = field.stamp(in: later) else { return earlier.counter != later.counter }
            return before != after
        }
    }
}
