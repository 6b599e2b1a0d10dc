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
        let advance = DefaultAdvanceHOTPUseCase(repository: repository, hmac: RFC4226HMAC())
        await #expect(throws: AccountValidationError.counterExhausted) { try await advance.execute(id: account.id) }
        #expect(try await repository.get(id: account.id).kind == .hotp(counter: .max))
    }
}
