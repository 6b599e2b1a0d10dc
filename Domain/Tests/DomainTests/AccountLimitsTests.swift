import Domain
import DomainTestSupport
import Foundation
import Testing

@Suite("Limits of an account's parameters")
struct AccountLimitsTests {
    @Test("a TOTP period is 1 s to a day")
    func period() throws {
        let secret = Secret(bytes: Array("12345678901234567890".utf8))
        for period in [0, -30, 86_401, Int.max] {
            #expect(throws: AccountValidationError.invalidPeriod(period)) {
                try AccountSpec(issuer: "A", name: "b", secret: secret, kind: .totp(period: period))
            }
        }
        #expect(try AccountSpec(issuer: "A", name: "b", secret: secret, kind: .totp(period: 86_400)).kind == .totp(period: 86_400))
        #expect(AccountValidationError.invalidPeriod(0).description == "period: 0 is not allowed (use 1 to 86400 seconds)")
    }

    @Test("an HOTP counter at its maximum does not wrap to 0: advancing it is an error and changes nothing")
    func counterAtMaximum() async throws {
        #expect(try OTPKind.hotp(counter: 7).advancingCounter() == .hotp(counter: 8))
        #expect(try OTPKind.totp(period: 30).advancingCounter() == nil)
        #expect(throws: AccountValidationError.counterExhausted) { try OTPKind.hotp(counter: .max).advancingCounter() }
        let account = Account.stub(kind: .hotp(counter: .max))
        let repository = TestAccountRepository([account])
        let current = DefaultCurrentCodeUseCase(repository: repository, hmac: RFC4226HMAC())
        await #expect(throws: AccountValidationError.counterExhausted) {
            try await current.execute(for: account, at: Date(timeIntervalSince1970: 59))
        }
        #expect(try await repository.get(id: account.id).kind == .hotp(counter: .max))
    }

    @Test("every text field and the secret have a length limit, each error naming the field")
    func lengths() throws {
        let secret = Secret(bytes: Array("12345678901234567890".utf8))
        let long = String(repeating: "x", count: 257)
        #expect(throws: AccountValidationError.tooLong(.issuer, limit: 256)) {
            try AccountSpec(issuer: long, name: "b", secret: secret, kind: .steam)
        }
        #expect(throws: AccountValidationError.tooLong(.account, limit: 256)) {
            try AccountSpec(issuer: "A", name: long, secret: secret, kind: .steam)
        }
        #expect(throws: AccountValidationError.secretTooLong(limit: 512)) {
            try AccountSpec(issuer: "A", name: "b", secret: Secret(bytes: [UInt8](repeating: 1, count: 513)), kind: .steam)
        }
        #expect(throws: AccountValidationError.tooLong(.note, limit: 4_096)) {
            try AccountText.validate(note: String(repeating: "n", count: 4_097), groups: [])
        }
        #expect(throws: AccountValidationError.tooLong(.group, limit: 64)) {
            try AccountText.validate(note: "", groups: [String(repeating: "g", count: 65)])
        }
        #expect(throws: AccountValidationError.tooManyGroups(limit: 32)) {
            try AccountText.validate(note: "", groups: (0..<33).map { "g\($0)" })
        }
        _ = try AccountSpec(issuer: String(repeating: "é", count: 256), name: "b", secret: secret, kind: .steam)
        try AccountText.validate(note: String(repeating: "n", count: 4_096), groups: (0..<32).map { "g\($0)" })
    }

    @Test("an import of more entries than the limit is refused whole, and writes nothing")
    func tooManyEntries() async throws {
        let spec = try AccountSpec(issuer: "A", name: "b", secret: Secret(bytes: [1]), kind: .totp(period: 30))
        let limit = DefaultImportAccountsUseCase.maximumEntries
        let decoded = DecodedImport(format: .keyURIs, entries: Array(repeating: ImportedEntry(spec: spec), count: limit + 1))
        let repository = TestAccountRepository()
        let importer = DefaultImportAccountsUseCase(
            decoder: TestImportDecoder(decoded), repository: repository, clock: FixedClock(unix: 1), random: CountingRandomSource())
        await #expect(throws: ImportError.tooManyEntries(limit + 1, limit: limit)) {
            try await importer.execute(Data(), format: nil, password: nil, duplicates: .keep, dryRun: false)
        }
        #expect(try await repository.list().isEmpty)
    }
}
