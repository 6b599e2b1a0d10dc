import Foundation

/// An invitation to open a sync account on a server that asks for one: 32 random bytes from
/// its operator (`tokens-server admin invite` prints them in base64; `tokens sync init --invite`
/// reads them). Single-use, but a secret until used: its description never shows it.
public struct SyncInvitation: Equatable, Sendable, CustomStringConvertible {
    public let bytes: [UInt8]

    /// Nil unless `text` (surrounding blanks aside) is 32 bytes in base64.
    public init?(text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.count == 44, let data = Data(base64Encoded: trimmed), data.count == 32 else { return nil }
        bytes = Array(data)
    }

    public var description: String { "SyncInvitation(redacted)" }
}
