import Domain
import Foundation

/// Builds Domain entries from the loose fields export formats use, collecting what cannot be
/// used as dropped items instead of failing the whole file.
struct InteropCollector {
    private(set) var entries: [ImportedEntry] = []
    private(set) var dropped: [DroppedItem] = []
    private(set) var notices: [DroppedItem] = []
    private var lostFields: [String: Int] = [:]
    /// Fields the next entry had that Tokens does not keep: counted once that entry is added.
    private var pendingLost: [String] = []

    /// Fields of one account as an export gives them.
    struct Fields {
        var issuer = ""
        var name = ""
        /// The secret: Base32 text, or raw bytes.
        var secretBase32: String?
        var secretBytes: [UInt8]?
        var kind = KindName.totp
        var algorithm = AlgorithmName.supported(.sha1)
        var digits = 6
        var period = OTPKind.defaultPeriod
        var counter: UInt64 = 0
        var note = ""
        var groups: [String] = []
        var isFavorite = false
    }

    /// Adds the account `fields` describe, or records why it cannot be imported. Control
    /// characters and bidi overrides are removed from its text first, and the report says so.
    mutating func add(_ fields: Fields, position: String) {
        var fields = fields
        let lost = pendingLost
        pendingLost = []
        var cleaned: [AccountTextField] = []
        fields.issuer = AccountText.removingForbidden(fields.issuer, as: .issuer, noting: &cleaned)
        fields.name = AccountText.removingForbidden(fields.name, as: .account, noting: &cleaned)
        let label = Account.displayName(issuer: fields.issuer, name: fields.name)
        let place = "\(position)\(label.isEmpty ? "" : ": \(label)")"
        do {
            // The kind first: another app's kind (mOTP's hex secret…) is unsupported, whatever its secret.
            let kind: OTPKind
            switch fields.kind {
            case .totp: kind = .totp(period: fields.period)
            case .hotp: kind = .hotp(counter: fields.counter)
            case .steam: kind = .steam
            case .unsupported(let name):
                dropped.append(DroppedItem(place, reason: "\(name) accounts are not supported"))
                return
            }
            let secret: Secret
            if let bytes = fields.secretBytes {
                secret = Secret(bytes: bytes)
            } else {
                do { secret = try Secret(base32: fields.secretBase32 ?? "") } catch { throw AccountValidationError.invalidSecret(error) }
            }
            let algorithm: OTPAlgorithm
            switch fields.algorithm {
            case .supported(let supported): algorithm = supported
            case .unsupported(let name):
                dropped.append(DroppedItem(place, reason: "the \(name) algorithm is not supported"))
                return
            }
            let spec = try AccountSpec(
                issuer: fields.issuer, name: fields.name, secret: secret, kind: kind, algorithm: algorithm,
                digits: fields.digits)
            try append(spec, note: fields.note, groups: fields.groups, isFavorite: fields.isFavorite, cleaned: cleaned, at: place)
            for field in lost { lostFields[field, default: 0] += 1 }
        } catch {
            dropped.append(DroppedItem(place, reason: "\(error)"))
        }
    }

    /// Adds the account of a Key URI, or records why it cannot be imported.
    mutating func add(uri: String, position: String, note: String = "", groups: [String] = [], isFavorite: Bool = false) {
        let lost = pendingLost
        pendingLost = []
        do {
            let (spec, cleaned) = try KeyURI.parse(uri, removingForbiddenText: true)
            try append(
                spec, note: note, groups: groups, isFavorite: isFavorite, cleaned: cleaned,
                at: "\(position): \(Account.displayName(issuer: spec.issuer, name: spec.name))")
            for field in lost { lostFields[field, default: 0] += 1 }
        } catch {
            dropped.append(DroppedItem(position, reason: "\(error)"))
        }
    }

    /// Adds an entry: its note and groups cleaned of forbidden characters and checked, and a
    /// notice for the entry (`item`) naming every field that was cleaned (`cleaned` so far too).
    private mutating func append(
        _ spec: AccountSpec, note: String, groups: [String], isFavorite: Bool, cleaned: [AccountTextField], at item: String
    ) throws {
        var cleaned = cleaned
        // A line break becomes a space (a note is one line here), not nothing.
        let oneLine = note.split(omittingEmptySubsequences: true, whereSeparator: \.isNewline).joined(separator: " ")
        let note = AccountText.removingForbidden(oneLine, as: .note, noting: &cleaned)
        let groups = groups.map { AccountText.removingForbidden($0, as: .group, noting: &cleaned) }
        try AccountText.validate(note: note, groups: groups)
        entries.append(ImportedEntry(spec: spec, note: note, groups: groups, isFavorite: isFavorite))
        guard !cleaned.isEmpty else { return }
        let names = cleaned.map { $0 == .group ? "groups" : $0.rawValue }.joined(separator: ", ")
        notices.append(DroppedItem(item, reason: "control characters or bidi overrides removed from \(names)"))
    }

    mutating func drop(_ item: String, reason: String) {
        pendingLost = []
        dropped.append(DroppedItem(item, reason: reason))
    }

    /// Notes that the entry added next has a field Tokens does not keep (reported once per field,
    /// counting only the entries imported).
    mutating func lose(_ field: String) {
        pendingLost.append(field)
    }

    mutating func notice(_ item: String, _ reason: String) {
        notices.append(DroppedItem(item, reason: reason))
    }

    func result(_ format: ImportFormat) -> DecodedImport {
        let lost = lostFields.sorted { $0.key < $1.key }.map { field, count in
            DroppedItem(field, reason: "not imported (Tokens does not keep it; \(count) entr\(count == 1 ? "y" : "ies") had one)")
        }
        return DecodedImport(format: format, entries: entries, dropped: dropped, notices: notices + lost)
    }
}
