import DataLayer
import Domain
import Foundation
import Testing

/// An encrypted Aegis file's slots are read before anything is authenticated: their number and
/// their scrypt cost must not let a small file run scrypt without bound.
@Suite("Aegis password slots from a hostile file")
struct AegisSlotLimitsTests {
    static let account = Account(
        id: UUID(), issuer: "Bank", name: "me", secret: Secret(bytes: Array(0..<20)), kind: .totp(period: 30),
        createdAt: Date(timeIntervalSince1970: 0), updatedAt: Date(timeIntervalSince1970: 0))

    /// An encrypted export whose password slot is copied `count` times with `change` applied.
    static func file(slots count: Int, _ change: (inout [String: Any]) -> Void) throws -> Data {
        let exported = try InteropCodec().encode([account], as: .aegisEncrypted, password: "right").data
        var root = try #require(try JSONSerialization.jsonObject(with: exported) as? [String: Any])
        var header = try #require(root["header"] as? [String: Any])
        var slot = try #require((header["slots"] as? [[String: Any]])?.first)
        change(&slot)
        header["slots"] = Array(repeating: slot, count: count)
        root["header"] = header
        return try JSONSerialization.data(withJSONObject: root)
    }

    @Test("a thousand slots of p = 16 are skipped, not run: a readable error at once")
    func costlySlots() throws {
        let data = try Self.file(slots: 1_000) { $0["p"] = 16 }
        #expect(data.count < 400_000)
        #expect(
            throws: ImportError.unsupported(
                .aegis,
                "no password slot with scrypt parameters Tokens accepts (N up to 2^20, r up to 32, p up to 4, 128 MiB of work in all)")
        ) {
            try InteropCodec().decode(data, as: nil, password: "right")
        }
    }

    @Test("of many runnable slots, only the first 8 are tried")
    func manySlots() throws {
        let data = try Self.file(slots: 1_000) { $0["salt"] = String(repeating: "ab", count: 32) }
        #expect(throws: ImportError.wrongPassword(.aegis)) { try InteropCodec().decode(data, as: nil, password: "right") }
        let fine = try Self.file(slots: 1) { _ in }
        #expect(try InteropCodec().decode(fine, as: nil, password: "right").entries.count == 1)
    }

    @Test("one file spends at most 128 MiB of scrypt work: four slots at Aegis's cost, the fifth is never run")
    func workBudget() throws {
        let right = try Self.file(slots: 1) { _ in }
        var root = try #require(try JSONSerialization.jsonObject(with: right) as? [String: Any])
        var header = try #require(root["header"] as? [String: Any])
        let slot = try #require((header["slots"] as? [[String: Any]])?.first)
        #expect(slot["n"] as? Int == 1 << 15 && slot["r"] as? Int == 8 && slot["p"] as? Int == 1)
        var wrong = slot
        wrong["salt"] = String(repeating: "ab", count: 32)
        for (wrongSlots, opens) in [(3, true), (4, false)] {
            header["slots"] = Array(repeating: wrong, count: wrongSlots) + [slot]
            root["header"] = header
            let data = try JSONSerialization.data(withJSONObject: root)
            if opens {
                #expect(try InteropCodec().decode(data, as: nil, password: "right").entries.count == 1)
            } else {
                #expect(throws: ImportError.wrongPassword(.aegis)) { try InteropCodec().decode(data, as: nil, password: "right") }
            }
        }
    }
}
