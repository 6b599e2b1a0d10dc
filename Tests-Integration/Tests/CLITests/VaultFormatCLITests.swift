import Foundation
import IntegrationTestSupport
import Testing

/// A vault written by an older `tokens`, opened by this one.
@Suite("Vault formats through the binary")
struct VaultFormatCLITests {
    /// Data's committed format-1 vault (see its Fixtures/README.md), made by the last format-1 build.
    static let format1Fixture = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Data/Tests/DataLayerTests/Fixtures/vault-format1.sqlite")

    @Test("a format-1 vault is migrated on its first unlock: every account kept, the HOTP counter goes on from 7")
    func migratesFormat1() throws {
        let home = try TemporaryHome()
        let vault = Vaults.path(phase: "real", home: home.url)
        try FileManager.default.createDirectory(at: vault.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Self.format1Fixture, to: vault)
        let unlock = Vaults.environment()

        let listed = try TokensProcess.run(["list"], home: home.url, environment: unlock)
        #expect(listed.status == 0, "\(listed.stderr)")
        for name in ["Example", "alice@example.com", "Bank", "Steam", "gamer"] {
            #expect(listed.stdout.contains(name), "\(name) missing from: \(listed.stdout)")
        }
        let hotp = "otpauth://hotp/Bank:bob?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&algorithm=SHA256&digits=8&counter="
        for counter in 7...8 {
            let code = try TokensProcess.run(["code", "Bank"], home: home.url, environment: unlock)
            let expected = try TokensProcess.run(["code", "--uri", hotp + "\(counter)"], home: home.url)
            #expect(code.status == 0, "\(code.stderr)")
            #expect(code.stdout == expected.stdout)
        }
        // Migrated once: a later unlock writes nothing.
        let before = try Vaults.snapshot(vault.deletingLastPathComponent())
        #expect(try TokensProcess.run(["list"], home: home.url, environment: unlock).status == 0)
        #expect(try Vaults.snapshot(vault.deletingLastPathComponent()) == before)
    }
}
