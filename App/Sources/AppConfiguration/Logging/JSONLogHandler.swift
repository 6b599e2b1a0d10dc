import Foundation
import Logging

/// One JSON object per line on standard error, for log collectors: `time` (ISO 8601, UTC,
/// milliseconds), `level`, `label`, `message`, `source`, and each metadata field (strings, or
/// objects and arrays as the metadata nests them). Values are escaped by JSON, so text from the
/// network cannot break a line or forge another.
struct JSONLogHandler: LogHandler {
    let label: String
    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?

    init(label: String, level: Logger.Level) {
        self.label = label
        logLevel = level
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        FileHandle.standardError.write(line(event, at: Date()))
    }

    /// The line of `event` at `time`, with its newline.
    func line(_ event: LogEvent, at time: Date) -> Data {
        var fields = metadata
        if let provided = metadataProvider?.get() { fields.merge(provided) { $1 } }
        if let own = event.metadata { fields.merge(own) { $1 } }
        var object: [String: Any] = fields.mapValues(Self.json)
        object["time"] = time.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
        object["level"] = event.level.rawValue
        object["label"] = label
        object["message"] = event.message.description
        object["source"] = event.source
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return data + Data("\n".utf8)
    }

    private static func json(_ value: Logger.Metadata.Value) -> Any {
        switch value {
        case .string(let text): text
        case .stringConvertible(let convertible): convertible.description
        case .dictionary(let dictionary): dictionary.mapValues(json)
        case .array(let array): array.map(json)
        }
    }
}
