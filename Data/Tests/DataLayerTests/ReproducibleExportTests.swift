import Domain
import DomainTestSupport
import Foundation
import Synchronization
import Testing

@testable import DataLayer

/// Exports take every id, key, salt and nonce from the RandomSource they are given: the same
/// source makes the same bytes, so an export can be checked byte for byte.
@Suite("Reproducible exports")
struct ReproducibleExportTests {
    static let accounts = InteropRoundTripTests.accounts.map { account in
        var grouped = account
        grouped.groups = ["Work", "Home"]
        return grouped
    }

    func export(_ format: ExportFormat, seed: UInt64) throws -> Data {
        let password = format == .aegisEncrypted ? "pw" : nil
        return try InteropCodec().encode(Self.accounts, as: format, password: password, random: SeededRandomSource(seed: seed)).data
    }

    @Test("the same randomness gives the same file, in every format", arguments: ExportFormat.allCases)
    func sameBytes(format: ExportFormat) throws {
        #expect(try export(format, seed: 7) == export(format, seed: 7))
    }

    @Test("other randomness gives other ids and keys; an encrypted export still opens with its password")
    func otherBytes() throws {
        #expect(try export(.aegis, seed: 7) != export(.aegis, seed: 8))  // group ids
        #expect(try export(.googleMigration, seed: 7) != export(.googleMigration, seed: 8))  // batch id
        let encrypted = try export(.aegisEncrypted, seed: 7)
        #expect(try encrypted != export(.aegisEncrypted, seed: 8))
        let imported = try InteropCodec().decode(encrypted, as: nil, password: "pw")
        #expect(imported.entries.count == Self.accounts.count)
        #expect(imported.entries.allSatisfy { $0.groups == ["Work", "Home"] })
    }
}

/// A RandomSource that repeats for a seed (SplitMix).
final class SeededRandomSource: RandomSource {
    private let generator: Mutex<SplitMix>

    init(seed: UInt64) { generator = Mutex(SplitMix(seed: seed)) }

    func bytes(count: Int) -> [UInt8] {
        generator.withLock { generator in (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) } }
    }
}
