import Domain
import Foundation

/// Small decoding helpers shared by the formats.
enum InteropJSON {
    /// The JSON object or array in `data`, or a malformed-file error.
    static func object(_ data: Data, _ format: ImportFormat) throws -> Any {
        do { return try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) } catch {
            throw ImportError.malformed(format, "it is not JSON")
        }
    }

    /// Decodes a Codable DTO, with a short reason on failure.
    static func decode<T: Decodable>(_ type: T.Type, from data: Data, _ format: ImportFormat) throws -> T {
        do { return try JSONDecoder().decode(type, from: data) } catch let error as DecodingError {
            throw ImportError.malformed(format, describe(error))
        } catch {
            throw ImportError.malformed(format, "it is not JSON")
        }
    }

    static func describe(_ error: DecodingError) -> String {
        switch error {
        case .keyNotFound(let key, let context): "missing field \(path(context.codingPath + [key]))"
        case .typeMismatch(_, let context), .valueNotFound(_, let context): "unexpected value at \(path(context.codingPath))"
        case .dataCorrupted(let context): context.codingPath.isEmpty ? "it is not JSON" : "bad value at \(path(context.codingPath))"
        @unknown default: "unreadable"
        }
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        keys.isEmpty ? "top level" : keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
    }
}

extension InteropCollector {
    /// The kind of account an export names, read at the format's boundary.
    enum KindName: Equatable {
        case totp, hotp, steam
        /// Another app's kind (mOTP, Yandex…), by its name.
        case unsupported(String)

        /// A kind named in text: "TOTP", "hotp", "Steam"… (any case).
        init(text: String) {
            switch text.lowercased() {
            case "totp": self = .totp
            case "hotp": self = .hotp
            case "steam": self = .steam
            default: self = .unsupported(text)
            }
        }
    }

    /// The algorithm an export names, read at the format's boundary.
    enum AlgorithmName: Equatable {
        case supported(OTPAlgorithm)
        /// An algorithm Tokens does not have (MD5…), by its name.
        case unsupported(String)

        /// An algorithm named in text: "SHA1", "sha-256"…
        init(text: String) {
            self = OTPAlgorithm(name: text).map(Self.supported) ?? .unsupported(text)
        }
    }
}
