import Domain
import Foundation
import SwiftProtobuf

/// Google Authenticator's "Transfer accounts" export: `otpauth-migration://offline?data=…` lines,
/// each a Base64 protobuf batch. Unspecified algorithm, digits and type mean SHA1, 6 and TOTP.
/// GA has no period field (30 s is assumed, and said).
enum GoogleMigrationCodec {
    static let scheme = "otpauth-migration://offline?"
    static let batchSize = 10
    /// The most batches an export may claim. Google Authenticator shows one QR code a batch of
    /// ten; a larger claim is not a real export, and is not tracked (no per-index bookkeeping).
    static let maximumBatches: Int32 = 1_000

    static func decode(_ data: Data) throws -> DecodedImport {
        guard let text = String(data: data, encoding: .utf8) else { throw ImportError.malformed(.googleMigration, "it is not text") }
        var collector = InteropCollector()
        var batches: [Int32: (size: Int32, indices: Set<Int32>)] = [:]
        var totpCount = 0
        for (lineIndex, rawLine) in text.split(whereSeparator: \.isNewline).enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let position = "line \(lineIndex + 1)"
            guard let payload = payload(of: line) else {
                collector.drop(position, reason: "not an otpauth-migration://offline?data=… URI with a valid payload")
                continue
            }
            if payload.batchSize > Self.maximumBatches || !(0..<max(payload.batchSize, 1)).contains(payload.batchIndex) {
                collector.notice(
                    position,
                    "batch \(payload.batchIndex) of \(payload.batchSize) is out of range (at most \(Self.maximumBatches) batches): missing batches cannot be checked"
                )
            } else if payload.batchSize > 1 {
                batches[payload.batchID, default: (payload.batchSize, [])].indices.insert(payload.batchIndex)
            }
            for (index, parameters) in payload.otpParameters.enumerated() {
                var fields = InteropCollector.Fields()
                fields.issuer = parameters.issuer
                let name = parameters.name
                // GA writes the label "Issuer:account" into name; keep the account part.
                if !parameters.issuer.isEmpty, name.hasPrefix(parameters.issuer + ":") {
                    fields.name = String(name.dropFirst(parameters.issuer.count + 1)).trimmingCharacters(in: .whitespaces)
                } else {
                    fields.name = name
                }
                fields.secretBytes = Array(parameters.secret)
                switch parameters.type {
                case .hotp: fields.kind = .hotp
                case .totp, .unspecified: fields.kind = .totp
                case .UNRECOGNIZED(let value): fields.kind = .unsupported("GA type \(value)")
                }
                switch parameters.algorithm {
                case .sha1, .unspecified: fields.algorithm = .supported(.sha1)
                case .sha256: fields.algorithm = .supported(.sha256)
                case .sha512: fields.algorithm = .supported(.sha512)
                case .md5: fields.algorithm = .unsupported("MD5")
                case .UNRECOGNIZED(let value): fields.algorithm = .unsupported("algorithm \(value)")
                }
                fields.digits = parameters.digits == .eight ? 8 : 6
                fields.counter = UInt64(max(0, parameters.counter))
                if fields.kind == .totp { totpCount += 1 }
                collector.add(fields, position: "\(position) account \(index + 1)")
            }
        }
        for (_, batch) in batches.sorted(by: { $0.key < $1.key }) {
            let missing = (0..<batch.size).filter { !batch.indices.contains($0) }
            if !missing.isEmpty {
                collector.drop(
                    "batches",
                    reason:
                        "missing batch\(missing.count == 1 ? "" : "es") \(Self.ranges(missing.map { $0 + 1 })) of \(batch.size): scan every QR code Google Authenticator showed"
                )
            }
        }
        if totpCount > 0 {
            collector.notice(
                "period", "Google Authenticator exports carry no period: 30 s assumed for \(totpCount) account\(totpCount == 1 ? "" : "s")")
        }
        return collector.result(.googleMigration)
    }

    /// "2–5, 8" for [2, 3, 4, 5, 8]: runs of consecutive numbers as ranges (input sorted).
    static func ranges(_ numbers: [Int32]) -> String {
        var parts: [String] = []
        var index = numbers.startIndex
        while index < numbers.endIndex {
            var end = index
            while end + 1 < numbers.endIndex, numbers[end + 1] == numbers[end] + 1 { end += 1 }
            parts.append(end == index ? "\(numbers[index])" : "\(numbers[index])–\(numbers[end])")
            index = end + 1
        }
        return parts.joined(separator: ", ")
    }

    private static func payload(of line: String) -> MigrationPayload? {
        guard line.lowercased().hasPrefix(scheme),
            let data = line.dropFirst(scheme.count).split(separator: "&").first(where: { $0.hasPrefix("data=") }),
            let base64 = String(data.dropFirst(5)).removingPercentEncoding,
            let bytes = Data(base64Encoded: base64.replacingOccurrences(of: " ", with: "+"))
        else { return nil }
        return try? MigrationPayload(serializedBytes: bytes)
    }

    /// Migration URIs for `accounts`, ten a batch; what GA cannot hold is left out and listed.
    static func encode(_ accounts: [Account], random: any RandomSource) throws -> EncodedExport {
        var omitted: [DroppedItem] = []
        var parameters: [MigrationPayload.OtpParameters] = []
        for account in accounts {
            var entry = MigrationPayload.OtpParameters()
            switch account.kind {
            case .steam:
                omitted.append(DroppedItem(account.displayName, reason: "Google Authenticator has no Steam accounts"))
                continue
            case .totp(let period) where period != OTPKind.defaultPeriod:
                omitted.append(DroppedItem(account.displayName, reason: "Google Authenticator has no period (this one is \(period) s)"))
                continue
            case .totp:
                entry.type = .totp
            case .hotp(let counter):
                guard counter <= UInt64(Int64.max) else {
                    omitted.append(DroppedItem(account.displayName, reason: "counter too large for Google Authenticator"))
                    continue
                }
                entry.type = .hotp
                entry.counter = Int64(counter)
            }
            guard account.digits == 6 || account.digits == 8 else {
                omitted.append(DroppedItem(account.displayName, reason: "Google Authenticator has only 6 or 8 digits"))
                continue
            }
            entry.digits = account.digits == 8 ? .eight : .six
            entry.algorithm =
                switch account.algorithm {
                case .sha1: .sha1
                case .sha256: .sha256
                case .sha512: .sha512
                }
            entry.secret = Data(account.secret.bytes)
            entry.issuer = account.issuer
            entry.name = account.issuer.isEmpty ? account.name : "\(account.issuer):\(account.name)"
            parameters.append(entry)
        }
        let chunks = stride(from: 0, to: parameters.count, by: batchSize).map {
            Array(parameters[$0..<min($0 + batchSize, parameters.count)])
        }
        // A positive 31-bit batch id (Google Authenticator's are).
        let batchID = max(1, Int32(bitPattern: random.bytes(count: 4).reduce(0) { $0 << 8 | UInt32($1) } & 0x7FFF_FFFF))
        var lines: [String] = []
        for (index, chunk) in chunks.enumerated() {
            var payload = MigrationPayload()
            payload.otpParameters = chunk
            payload.version = 1
            payload.batchSize = Int32(chunks.count)
            payload.batchIndex = Int32(index)
            payload.batchID = batchID
            let base64 = try payload.serializedData().base64EncodedString()
            let escaped = base64.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? base64
            lines.append(scheme + "data=" + escaped)
        }
        return EncodedExport(data: Data(lines.map { $0 + "\n" }.joined().utf8), omitted: omitted)
    }
}
