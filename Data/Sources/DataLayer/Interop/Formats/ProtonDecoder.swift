import Domain
import Foundation

/// Proton Authenticator's JSON export: an otpauth URI per entry, with a note.
enum ProtonDecoder {
    struct ExportDTO: Decodable {
        struct Entry: Decodable {
            struct Content: Decodable {
                var uri: String
                var name: String?
            }

            var content: Content
            var note: String?
        }

        var version: Int?
        var entries: [Entry]
    }

    static func decode(_ data: Data) throws -> DecodedImport {
        let export = try InteropJSON.decode(ExportDTO.self, from: data, .proton)
        var collector = InteropCollector()
        for (index, entry) in export.entries.enumerated() {
            collector.add(uri: entry.content.uri, position: "entry \(index + 1)", note: entry.note ?? "")
        }
        return collector.result(.proton)
    }
}
