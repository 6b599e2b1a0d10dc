import Foundation

/// The 256-bit key a vault's entries are encrypted under for sync. Its descriptions are
/// redacted: it must never reach a log, an error or the server.
public struct SyncKey: Hashable, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    public static let byteCount = 32
    public let bytes: [UInt8]

    /// Nil unless exactly 32 bytes.
    public init?(bytes: [UInt8]) {
        guard bytes.count == Self.byteCount else { return nil }
        self.bytes = bytes
    }

    public var description: String { "SyncKey(redacted)" }
    public var debugDescription: String { description }
}

/// Why a sync code was refused (each in one line, none repeating the code).
public enum SyncCodeError: Error, Equatable, Sendable, CustomStringConvertible {
    case wrongLength(Int)
    case notBase32
    case checksumMismatch
    case unknownVersion(UInt8)

    public var description: String {
        switch self {
        case .wrongLength(let count): "a sync code has \(SyncCode.characterCount) characters (not counting spaces), this one \(count)"
        case .notBase32: "a sync code has only the letters A to Z and the digits 2 to 7"
        case .checksumMismatch: "this sync code has a typo: a character is wrong or two are swapped"
        case .unknownVersion(let version): "this sync code comes from a newer Tokens (format \(version)): update Tokens"
        }
    }
}

/// What another machine needs to join a vault's sync: the sync account's id and the sync key,
/// as Base32 in groups of five with a checksum, like a recovery key. Whoever has it can join.
public struct SyncCode: Hashable, Sendable, CustomStringConvertible {
    public static let version: UInt8 = 1
    /// Version, account id, key and a CRC-32: 53 bytes, 85 Base32 characters.
    static let byteCount = 1 + 16 + SyncKey.byteCount + 4
    public static let characterCount = (byteCount * 8 + 4) / 5

    public let account: UUID
    public let key: SyncKey

    public init(account: UUID, key: SyncKey) {
        self.account = account
        self.key = key
    }

    /// Reads a code as people copy it: any case, spaces, dashes and line breaks; 0, 1 and 8 read
    /// as O, I and B (Base32 has none of them).
    public init(parsing text: String) throws(SyncCodeError) {
        let symbols = text.uppercased().unicodeScalars.filter { !" -\t\r\n".unicodeScalars.contains($0) }.map { scalar -> Character in
            switch scalar {
            case "0": "O"
            case "1": "I"
            case "8": "B"
            default: Character(scalar)
            }
        }
        guard symbols.count == Self.characterCount else { throw .wrongLength(symbols.count) }
        guard let bytes = try? Base32.decode(String(symbols)), bytes.count == Self.byteCount else { throw .notBase32 }
        let body = Array(bytes.prefix(Self.byteCount - 4))
        guard Array(bytes.suffix(4)) == Self.crc32(body) else { throw .checksumMismatch }
        guard body[0] == Self.version else { throw .unknownVersion(body[0]) }
        account = UUID(bytes: Array(body[1...16]))!
        key = SyncKey(bytes: Array(body[17...]))!
    }

    /// The code in groups of five, e.g. "ABCDE FGHIJ …".
    public var text: String {
        let body = [Self.version] + account.bytes + key.bytes
        let symbols = Array(Base32.encode(body + Self.crc32(body)))
        return stride(from: 0, to: symbols.count, by: 5).map { String(symbols[$0..<min($0 + 5, symbols.count)]) }.joined(separator: " ")
    }

    /// Redacted: the code is a secret (print `text` only where the user asked for it).
    public var description: String { "SyncCode(redacted)" }

    /// CRC-32 (IEEE), big-endian.
    static func crc32(_ bytes: [UInt8]) -> [UInt8] {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = (crc >> 1) ^ (crc & 1 == 1 ? 0xEDB8_8320 : 0) }
        }
        crc = ~crc
        return [
            UInt8(crc >> 24), UInt8(truncatingIfNeeded: crc >> 16), UInt8(truncatingIfNeeded: crc >> 8), UInt8(truncatingIfNeeded: crc),
        ]
    }
}
