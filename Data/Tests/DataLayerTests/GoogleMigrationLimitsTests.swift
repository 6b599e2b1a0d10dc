import Foundation
import Testing

@testable import DataLayer

/// A migration line is tiny, and its batch fields are whatever the file says: they must not
/// make the importer allocate or loop in proportion to them.
@Suite("Google Authenticator migration: batch fields from a hostile file")
struct GoogleMigrationLimitsTests {
    static func line(batchSize: Int32, batchIndex: Int32, batchID: Int32 = 7) throws -> String {
        var parameters = MigrationPayload.OtpParameters()
        parameters.secret = Data("12345678901234567890".utf8)
        parameters.issuer = "Bank"
        parameters.name = "me"
        parameters.type = .totp
        var payload = MigrationPayload()
        payload.otpParameters = [parameters]
        payload.batchSize = batchSize
        payload.batchIndex = batchIndex
        payload.batchID = batchID
        let data = try payload.serializedData().base64EncodedString()
        return "otpauth-migration://offline?data=" + (data.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
    }

    @Test(
        "a batch size of 2^31 − 1 is reported, not enumerated; the account is still imported",
        arguments: [(Int32.max, Int32(0)), (5, 9), (3, -1)])
    func hugeBatchSize(size: Int32, index: Int32) throws {
        let text = try Self.line(batchSize: size, batchIndex: index)
        #expect(text.utf8.count < 200)
        let decoded = try InteropCodec().decode(Data(text.utf8), as: nil, password: nil)
        #expect(decoded.entries.map(\.spec.issuer) == ["Bank"])
        #expect(decoded.dropped.isEmpty)
        #expect(decoded.notices.contains { $0.item == "line 1" && $0.reason.contains("out of range") }, "\(decoded.notices)")
    }

    @Test("missing batches are named as ranges")
    func missingRanges() throws {
        let text = try [0, 5, 6, 9].map { try Self.line(batchSize: 12, batchIndex: $0) }.joined(separator: "\n")
        let decoded = try InteropCodec().decode(Data(text.utf8), as: nil, password: nil)
        #expect(
            decoded.dropped.map(\.description) == [
                "batches: missing batches 2–5, 8–9, 11–12 of 12: scan every QR code Google Authenticator showed"
            ])
        #expect(GoogleMigrationCodec.ranges([1, 2, 3, 7, 9, 10]) == "1–3, 7, 9–10")
        #expect(GoogleMigrationCodec.ranges([]) == "")
    }
}
