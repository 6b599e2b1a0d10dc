/// A device's name, as the client checks it before enrolling, the server before storing it (this
/// file is compiled into both the client's Domain and the server's SyncServer) and the API
/// document states it (JSON Schema's maxLength counts Unicode code points, so this does
/// too): 1 to 64 Unicode scalars, none of them a control character (C0, DEL or C1), since other
/// machines show it in their terminals.
public enum DeviceNameRule {
    public static let maximumLength = 64

    /// What is wrong with a name, in the user's terms.
    public enum Problem: Error, Equatable, Sendable, CustomStringConvertible {
        case empty
        case tooLong(scalars: Int)
        case controlCharacter

        public var description: String {
            switch self {
            case .empty: "a device name must not be empty"
            case .tooLong(let scalars): "a device name has at most \(maximumLength) characters (this one has \(scalars))"
            case .controlCharacter: "a device name has no control characters"
            }
        }
    }

    /// Throws the first problem of `name`, if any.
    public static func check(_ name: String) throws(Problem) {
        let scalars = name.unicodeScalars.count
        guard scalars > 0 else { throw .empty }
        guard scalars <= maximumLength else { throw .tooLong(scalars: scalars) }
        guard !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else { throw .controlCharacter }
    }
}
