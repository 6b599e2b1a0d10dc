import Foundation

/// How an operator names an account or a device on the command line: a prefix of its id (as
/// the tables print it, at least `minimumLength` characters), or a device's exact name. A
/// reference that names none, or more than one, is refused with what to do.
public enum AdminReference {
    /// The shortest prefix taken: the tables print 8 characters.
    public static let minimumLength = 4

    /// The one id among `ids` that `text` is a prefix of (dashes and case ignored).
    public static func account(_ text: String, among ids: [SyncAccountID]) throws(AdministrationError) -> SyncAccountID {
        let matches = try matching(text, ids.map(\.uuid))
        guard let only = matches.first else { throw .noAccount(text) }
        guard matches.count == 1 else { throw .ambiguousAccount(text, matches: matches.count) }
        return SyncAccountID(only)
    }

    /// The one device `text` names: its exact name, else a prefix of its id.
    public static func device(_ text: String, among devices: [SyncDevice]) throws(AdministrationError) -> SyncDevice {
        let named = devices.filter { $0.name == text }
        if named.count > 1 { throw .ambiguousDevice(text, matches: named.count) }
        if let only = named.first { return only }
        // Not a name and not an id: the operator meant a name.
        let matches = (try? matching(text, devices.map(\.id.uuid))) ?? []
        guard let first = matches.first, let device = devices.first(where: { $0.id.uuid == first }) else { throw .noDevice(text) }
        guard matches.count == 1 else { throw .ambiguousDevice(text, matches: matches.count) }
        return device
    }

    /// The short form the tables print: the id's first 8 characters.
    public static func short(_ uuid: UUID) -> String { String(uuid.uuidString.lowercased().prefix(8)) }

    private static func matching(_ text: String, _ ids: [UUID]) throws(AdministrationError) -> [UUID] {
        let wanted = text.lowercased().filter { $0 != "-" }
        guard wanted.count >= minimumLength, wanted.allSatisfy(\.isHexDigit) else { throw .badReference(text) }
        return ids.filter { $0.uuidString.lowercased().filter { $0 != "-" }.hasPrefix(wanted) }
    }
}

/// Why an administration command did nothing.
public enum AdministrationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Not a reference at all: too short, or not hexadecimal.
    case badReference(String)
    case noAccount(String)
    case ambiguousAccount(String, matches: Int)
    case noDevice(String)
    case ambiguousDevice(String, matches: Int)

    public var description: String {
        switch self {
        case .badReference(let text):
            "'\(text)' is not an id: give at least \(AdminReference.minimumLength) hexadecimal characters of one"
        case .noAccount(let text): "no account's id starts with '\(text)' (see: admin accounts)"
        case .ambiguousAccount(let text, let matches): "'\(text)' starts \(matches) accounts' ids: give more of the id"
        case .noDevice(let text): "the account has no device named '\(text)' or whose id starts so (see: admin devices)"
        case .ambiguousDevice(let text, let matches): "'\(text)' names \(matches) of the account's devices: give more of the device's id"
        }
    }
}
