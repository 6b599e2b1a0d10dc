import Domain
import Foundation

/// otpauth:// URIs one a line (blank lines and `#` comments allowed), and Ente Auth's export:
/// the same, with a `codeDisplay` JSON parameter carrying tags, pins and notes.
enum KeyURIListDecoder {
    /// The longest line read as a Key URI: every field at its limit, percent-encoded, fits.
    static let maximumLineBytes = 64 << 10

    static func decode(_ data: Data, format: ImportFormat) throws -> DecodedImport {
        guard String(data: data, encoding: .utf8) != nil else { throw ImportError.malformed(format, "it is not text") }
        // Lines are found on bytes, and counted before any is parsed: too many is refused at once.
        let lines = ByteLines.all(of: data).filter { !$0.bytes.isEmpty && $0.bytes.first != UInt8(ascii: "#") }
        let limit = DefaultImportAccountsUseCase.maximumEntries
        guard lines.count <= limit else { throw ImportError.tooManyEntries(lines.count, limit: limit) }
        var collector = InteropCollector()
        for line in lines {
            let position = "line \(line.number)"
            guard line.bytes.count <= maximumLineBytes else {
                collector.drop(position, reason: "the line is \(line.bytes.count) bytes long; a Key URI has at most \(maximumLineBytes)")
                continue
            }
            let text = String(decoding: line.bytes, as: UTF8.self).trimmingCharacters(in: .whitespaces)
            let display = format == .ente ? EnteCodeDisplay(uri: text) : nil
            if display?.trashed == true { collector.notice(position, "in Ente's trash; imported anyway") }
            collector.add(
                uri: text, position: position, note: display?.note ?? "", groups: display?.tags ?? [],
                isFavorite: display?.pinned ?? false)
        }
        return collector.result(format)
    }
}
/// Ente Auth's `codeDisplay` parameter: {"pinned":…, "trashed":…, "tags":[…], "note":…}.
struct EnteCodeDisplay: Decodable {
    var pinned: Bool?
    var trashed: Bool?
    var tags: [String]?
    var note: String?

    init?(uri: String) {
        guard let query = uri.split(separator: "?", maxSplits: 1).last,
            let pair = query.split(separator: "&").first(where: { $0.hasPrefix("codeDisplay=") }),
            let json = String(pair.dropFirst("codeDisplay=".count)).replacingOccurrences(of: "+", with: " ").removingPercentEncoding,
            let decoded = try? JSONDecoder().decode(EnteCodeDisplay.self, from: Data(json.utf8))
        else { return nil }
        self = decoded
    }
}
