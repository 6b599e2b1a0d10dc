import Domain
import Foundation

extension EntryPayloadDTO {
    /// The payload from the exact JSON `jsonBytes()` writes, read directly: a tenth of
    /// JSONDecoder's cost, which was most of opening a vault of 30 accounts. Nil for any other
    /// shape (key order, escapes, spacing): the caller then decodes with JSONDecoder, which reads
    /// every payload older builds wrote.
    init?(jsonBytes bytes: some Collection<UInt8>) {
        var reader = PayloadReader(Array(bytes))
        defer { reader.wipe() }
        guard reader.literal(#"{"issuer":"#), let issuer = reader.string(),
            reader.literal(#","account":"#), let account = reader.string(),
            reader.literal(#","secret":"#), let secret = reader.string(),
            reader.literal(#","kind":{"type":"#), let type = reader.string()
        else { return nil }
        var period: Int?
        var counter: UInt64?
        if reader.literal(#","period":"#) {
            guard let value = reader.number().flatMap({ Int(exactly: $0) }) else { return nil }
            period = value
        }
        if reader.literal(#","counter":"#) {
            guard let value = reader.number() else { return nil }
            counter = value
        }
        guard reader.literal(#"},"algorithm":"#), let algorithm = reader.string(),
            reader.literal(#","digits":"#), let digits = reader.number().flatMap({ Int(exactly: $0) }),
            reader.literal(#","note":"#), let note = reader.string(),
            reader.literal(#","groups":["#)
        else { return nil }
        var groups: [String] = []
        if !reader.literal("]") {
            repeat {
                guard let group = reader.string() else { return nil }
                groups.append(group)
            } while reader.literal(",")
            guard reader.literal("]") else { return nil }
        }
        guard reader.literal(#","favorite":"#) else { return nil }
        let favorite: Bool
        if reader.literal("true") {
            favorite = true
        } else if reader.literal("false") {
            favorite = false
        } else {
            return nil
        }
        guard reader.literal("}"), reader.atEnd else { return nil }
        self.init(
            issuer: issuer, account: account, secret: secret, kind: KindDTO(type: type, period: period, counter: counter),
            algorithm: algorithm, digits: digits, note: note, groups: groups, favorite: favorite)
    }
}

/// Reads `jsonBytes()`'s output: its literals, its strings (escapes `\"`, `\\` and `\u00XX`
/// only) and its unsigned numbers. Every failure is nil, never a trap.
private struct PayloadReader {
    private var bytes: [UInt8]
    private var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var atEnd: Bool { index == bytes.count }

    /// Consumes `text` if it is next.
    mutating func literal(_ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard bytes.count - index >= count else { return false }
        let matches = text.withUTF8Buffer { expected in
            expected.indices.allSatisfy { bytes[index + $0] == expected[$0] }
        }
        if matches { index += count }
        return matches
    }

    mutating func string() -> String? {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
        index += 1
        // Most strings have no escape: made from the bytes where they lie.
        let start = index
        while index < bytes.count, bytes[index] >= 0x20, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\") {
            index += 1
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
            let end = index
            index += 1
            return bytes.withUnsafeBufferPointer { String(validating: UnsafeBufferPointer(rebasing: $0[start..<end]), as: UTF8.self) }
        }
        index = start
        var text: [UInt8] = []
        defer { text.wipe() }
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return String(validating: text, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard index < bytes.count else { return nil }
                let escaped = bytes[index]
                index += 1
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): text.append(escaped)
                case UInt8(ascii: "u"):
                    guard let value = hex4(), value < 0x80 else { return nil }
                    text.append(UInt8(value))
                default: return nil
                }
            case 0..<0x20:
                return nil
            default:
                text.append(byte)
            }
        }
        return nil
    }

    /// An unsigned integer without sign, fraction or exponent.
    mutating func number() -> UInt64? {
        var value: UInt64 = 0
        let start = index
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
            let (times, overflow) = value.multipliedReportingOverflow(by: 10)
            let (sum, carry) = times.addingReportingOverflow(UInt64(bytes[index] - UInt8(ascii: "0")))
            guard !overflow, !carry else { return nil }
            value = sum
            index += 1
        }
        return index > start ? value : nil
    }

    private mutating func hex4() -> UInt32? {
        guard bytes.count - index >= 4 else { return nil }
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let digit = Hex.value(bytes[index]) else { return nil }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    mutating func wipe() {
        bytes.wipe()
    }
}
