/// The shared secret of an account. Its descriptions are redacted so it never reaches a log line,
/// an error message or a crash report by accident; read `bytes` or `base32` on purpose.
public struct Secret: Hashable, Sendable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    public let bytes: [UInt8]

    public init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Decodes a Base32 text as users type or paste it (see `Base32.decode`).
    public init(base32 text: String) throws(Base32Error) {
        self.bytes = try Base32.decode(text)
    }

    /// The secret in Base32 without padding, as Key URIs carry it.
    public var base32: String { Base32.encode(bytes) }

    public var description: String { "Secret(redacted)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}
