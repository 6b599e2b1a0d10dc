import DataLayer
import Domain
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The passphrase a vault is unlocked with (wiped from memory when released). Data's type,
/// seen only inside App: other packages give a `PassphraseSource`.
package typealias Passphrase = DataLayer.Passphrase

/// Where a vault's passphrase comes from when nobody types it: a file (`--passphrase-file`),
/// then an environment variable (`TOKENS_PASSPHRASE`, for scripts and tests; less safe: other
/// processes of the user may read it). The terminal prompt is the command line's own.
public struct PassphraseSource: Sendable {
    /// The variable scripts set.
    public static let variable = "TOKENS_PASSPHRASE"

    /// No file and no variable: a vault phase then needs someone to type it.
    public static let none = PassphraseSource(environment: [:], warn: { _ in })

    let file: String?
    let variable: String
    let environment: [String: String]
    let warn: @Sendable (String) -> Void

    /// `variable` is looked up in `environment` when no `file` is given; `warn` hears what is
    /// allowed but unsafe (a passphrase file other users may read).
    public init(
        file: String? = nil, variable: String = PassphraseSource.variable, environment: [String: String],
        warn: @escaping @Sendable (String) -> Void
    ) {
        self.file = file
        self.variable = variable
        self.environment = environment
        self.warn = warn
    }

    /// The passphrase from the file or the variable; nil when neither is given.
    package func given() throws -> Passphrase? {
        if let file { return try Self.passphrase(fromFile: file, warn: warn) }
        if let value = environment[variable] {
            guard !value.isEmpty else { throw PassphraseSourceError.emptyVariable(variable) }
            return Passphrase(value)
        }
        return nil
    }

    /// The given passphrase as bytes (other apps' exports take a String); nil when none is given.
    package func givenBytes() throws -> [UInt8]? {
        if let file { return try Self.fileBytes(file, warn: warn) }
        if let value = environment[variable], !value.isEmpty { return Array(value.utf8) }
        return nil
    }

    /// A file's contents without one trailing newline; warns when others may read the file.
    package static func fileBytes(_ path: String, warn: (String) -> Void) throws -> [UInt8] {
        var status = stat()
        guard stat(path, &status) == 0 else { throw PassphraseSourceError.unreadableFile(path, reason: Self.reason(errno)) }
        guard status.st_mode & S_IFMT != S_IFDIR else {
            throw PassphraseSourceError.unreadableFile(path, reason: "it is a folder, not a file")
        }
        if status.st_mode & 0o077 != 0 { warn("warning: other users can read \(path); make it private with chmod 600") }
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw PassphraseSourceError.unreadableFile(path, reason: Self.reason(errno)) }
        close(descriptor)
        guard var data = FileManager.default.contents(atPath: path) else {
            throw PassphraseSourceError.unreadableFile(path, reason: "it could not be read")
        }
        var bytes = Array(data)
        data.wipe()
        if bytes.last == UInt8(ascii: "\n") { bytes.removeLast() }
        if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        guard !bytes.isEmpty else { throw PassphraseSourceError.emptyFile(path) }
        return bytes
    }

    private static func passphrase(fromFile path: String, warn: (String) -> Void) throws -> Passphrase {
        var bytes = try fileBytes(path, warn: warn)
        let passphrase = Passphrase(bytes)
        bytes.wipe()
        return passphrase
    }
}

/// Why a given passphrase could not be read.
public enum PassphraseSourceError: Error, Equatable, Sendable, CustomStringConvertible {
    case unreadableFile(String, reason: String)
    case emptyFile(String)
    case emptyVariable(String)

    public var description: String {
        switch self {
        case .unreadableFile(let path, let reason): "cannot read passphrase file \(path): \(reason)"
        case .emptyFile(let path): "passphrase file \(path) is empty"
        case .emptyVariable(let name): "\(name) is empty"
        }
    }
}

extension PassphraseSource {
    /// The system's words for `code`, as a clause: "no such file or directory".
    static func reason(_ code: Int32) -> String {
        let text = String(cString: strerror(code))
        return text.prefix(1).lowercased() + text.dropFirst()
    }
}
