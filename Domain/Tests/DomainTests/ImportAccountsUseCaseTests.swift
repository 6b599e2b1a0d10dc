import Domain
import DomainTestSupport
import Foundation
import Testing

@Suite("Import use case")
struct ImportAccountsUseCaseTests {
    let repository = TestAccountRepository()

    static func entry(_ issuer: String, secret: [UInt8], kind: OTPKind = .totp(period: 30)) throws -> ImportedEntry {
        ImportedEntry(spec: try AccountSpec(issuer: issuer, name: "me", secret: Secret(bytes: secret), kind: kind), note: "n")
    }

    func importer(_ decoded: DecodedImport) -> DefaultImportAccountsUseCase {
        DefaultImportAccountsUseCase(
            decoder: TestImportDecoder(decoded), repository: repository, clock: FixedClock(unix: 100),
            random: CountingRandomSource())
    }

    @Test("adds every new entry in one go, and reports what the decoder dropped and lost")
    func adds() async throws {
        let decoded = DecodedImport(
            format: .aegis, entries: [try Self.entry("A", secret: [1]), try Self.entry("B", secret: [2])],
            dropped: [DroppedItem("entry 3: mOTP", reason: "mOTP is not supported")],
            notices: [DroppedItem("A (me)", reason: "icon not imported")])
        let report = try await importer(decoded).execute(Data(), format: nil, password: nil, duplicates: .skip, dryRun: false)
        #expect(report.added.map(\.spec.issuer) == ["A", "B"])
        #expect(report.dropped.map(\.description) == ["entry 3: mOTP: mOTP is not supported"])
        #expect(report.notices.count == 1)
        let stored = try await repository.list()
        #expect(stored.map(\.issuer) == ["A", "B"])
        #expect(stored.allSatisfy { $0.note == "n" && $0.createdAt == Date(timeIntervalSince1970: 100) })
    }

    @Test("an export decoded beforehand (while the vault was unlocked) is applied the same way, the decoder not asked")
    func decodedBeforehand() async throws {
        let decoder = TestImportDecoder(DecodedImport(format: .aegis, entries: [], dropped: [], notices: []))
        let importer = DefaultImportAccountsUseCase(
            decoder: decoder, repository: repository, clock: FixedClock(unix: 100), random: CountingRandomSource())
        let decoded = DecodedImport(format: .twoFAS, entries: [try Self.entry("A", secret: [1])], dropped: [], notices: [])
        let report = try await importer.execute(decoded, duplicates: .skip, dryRun: false)
        #expect(report.format == .twoFAS && report.added.map(\.spec.issuer) == ["A"])
        #expect(try await repository.list().map(\.issuer) == ["A"])
        #expect(decoder.requests.isEmpty)
    }

    @Test("a duplicate is the same secret, kind and parameters: skipped by default, kept on request, also within the file")
    func duplicates() async throws {
        try await repository.add(.stub(issuer: "Kept", name: "me", secret: Secret(bytes: [1])))
        let decoded = DecodedImport(
            format: .keyURIs,
            entries: [
                try Self.entry("Same secret, other issuer", secret: [1]),
                try Self.entry("HOTP same secret", secret: [1], kind: .hotp(counter: 0)),
                try Self.entry("Same secret, 60 s", secret: [1], kind: .totp(period: 60)),
                try Self.entry("New", secret: [9]), try Self.entry("New again", secret: [9]),
            ])
        let skipped = try await importer(decoded).execute(Data(), format: nil, password: nil, duplicates: .skip, dryRun: true)
        #expect(skipped.added.map(\.spec.issuer) == ["HOTP same secret", "Same secret, 60 s", "New"])
        #expect(skipped.duplicates.map(\.entry.spec.issuer) == ["Same secret, other issuer", "New again"])
        #expect(skipped.duplicates.map(\.existing) == ["Kept (me) (id 00000000)", "New (me), entry 4 of this file"])
        let kept = try await importer(decoded).execute(Data(), format: nil, password: nil, duplicates: .keep, dryRun: true)
        #expect(kept.added.count == 5)
        #expect(kept.duplicates.count == 2)
    }

    @Test("digits or algorithm that differ make another account")
    func parametersCount() throws {
        let base = try AccountSpec(issuer: "A", name: "me", secret: Secret(bytes: [1]), kind: .totp(period: 30))
        let eight = try AccountSpec(issuer: "A", name: "me", secret: Secret(bytes: [1]), kind: .totp(period: 30), digits: 8)
        let sha256 = try AccountSpec(issuer: "A", name: "me", secret: Secret(bytes: [1]), kind: .totp(period: 30), algorithm: .sha256)
        let renamed = try AccountSpec(issuer: "B", name: "you", secret: Secret(bytes: [1]), kind: .totp(period: 30))
        let counted = try AccountSpec(issuer: "A", name: "me", secret: Secret(bytes: [1]), kind: .hotp(counter: 5))
        let recounted = try AccountSpec(issuer: "A", name: "me", secret: Secret(bytes: [1]), kind: .hotp(counter: 9))
        #expect(DuplicateKey(base) != DuplicateKey(eight))
        #expect(DuplicateKey(base) != DuplicateKey(sha256))
        #expect(DuplicateKey(base) == DuplicateKey(renamed))
        #expect(DuplicateKey(counted) == DuplicateKey(recounted))
    }

    @Test("a dry run writes nothing")
    func dryRun() async throws {
        let decoded = DecodedImport(format: .ente, entries: [try Self.entry("A", secret: [1])])
        let report = try await importer(decoded).execute(Data(), format: nil, password: nil, duplicates: .skip, dryRun: true)
        #expect(report.isDryRun && report.added.count == 1)
        #expect(try await repository.list().isEmpty)
    }

    @Test("all or nothing: a failing store keeps none of the accounts")
    func allOrNothing() async throws {
        await repository.failNext(with: RepositoryError.duplicateID(UUID()))
        let decoded = DecodedImport(format: .aegis, entries: [try Self.entry("A", secret: [1]), try Self.entry("B", secret: [2])])
        await #expect(throws: RepositoryError.self) {
            try await importer(decoded).execute(Data(), format: nil, password: nil, duplicates: .skip, dryRun: false)
        }
        #expect(try await repository.list().isEmpty)
    }

    @Test("a file that cannot be read at all is an error, with nothing written")
    func unreadable() async throws {
        let failing = DefaultImportAccountsUseCase(
            decoder: TestImportDecoder(failing: .passwordRequired(.aegis)), repository: repository,
            clock: FixedClock(), random: CountingRandomSource())
        await #expect(throws: ImportError.passwordRequired(.aegis)) {
            try await failing.execute(Data(), format: nil, password: nil, duplicates: .skip, dryRun: false)
        }
        #expect(ImportError.passwordRequired(.aegis).description == "the Aegis vault is encrypted and no password was given")
    }

    @Test("the file, the format asked for and the password go to the decoder as given")
    func passesThrough() async throws {
        let decoder = TestImportDecoder(DecodedImport(format: .aegis, entries: [try Self.entry("A", secret: [1])]))
        let importer = DefaultImportAccountsUseCase(
            decoder: decoder, repository: repository, clock: FixedClock(), random: CountingRandomSource())
        _ = try await importer.execute(Data([1, 2, 3]), format: .aegis, password: "pw", duplicates: .skip, dryRun: true)
        #expect(decoder.requests == [TestImportDecoder.Request(byteCount: 3, format: .aegis, password: "pw")])
    }
}
