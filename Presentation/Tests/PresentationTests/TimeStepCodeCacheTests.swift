import Domain
import Foundation
import Presentation
import PresentationTestSupport
import Synchronization
import Testing

@Suite("Time step code cache")
struct TimeStepCodeCacheTests {
    let generator = CountingGenerateCodes()

    func codes(_ cache: TimeStepCodeCache, _ account: Account, at second: Double) -> GeneratedCode {
        cache.execute(for: account, at: Date(timeIntervalSince1970: second))
    }

    @Test("gives what the use case it keeps gives, and asks it once per step")
    func keepsAStep() {
        let cache = TimeStepCodeCache(generating: generator)
        let account = Account.row(1, issuer: "A")
        let first = codes(cache, account, at: 31)
        // CounterEchoHMAC: the code is the time step.
        #expect(first == GeneratedCode(accountID: account.id, code: "000001", secondsRemaining: 29, period: 30, nextCode: "000002"))
        #expect(codes(cache, account, at: 40).secondsRemaining == 20)
        #expect(codes(cache, account, at: 40).code == "000001")
        // The second call within a step made the step after next ahead; nothing else was asked.
        #expect(generator.asked == [31, 70])
    }

    @Test("when the step turns, the code made ahead becomes next: the turn asks for nothing")
    func turnsWithoutWork() {
        let cache = TimeStepCodeCache(generating: generator)
        let account = Account.row(1, issuer: "A")
        _ = codes(cache, account, at: 31)
        _ = codes(cache, account, at: 32)
        let turned = codes(cache, account, at: 60)
        #expect(turned.code == "000002")
        #expect(turned.nextCode == "000003")
        #expect(turned.secondsRemaining == 30)
        #expect(generator.asked == [31, 62])
    }

    @Test("an edited account, a skipped step or a turn with nothing made ahead is made afresh")
    func madeAfresh() {
        let cache = TimeStepCodeCache(generating: generator)
        var account = Account.row(1, issuer: "A")
        _ = codes(cache, account, at: 31)
        #expect(codes(cache, account, at: 60).code == "000002")  // turned, nothing ahead: asked
        account.digits = 8
        #expect(codes(cache, account, at: 61).code == "00000002")
        account.kind = .totp(period: 60)
        #expect(codes(cache, account, at: 61).code == "00000001")
        #expect(codes(cache, account, at: 300).code == "00000005")  // steps skipped
        #expect(generator.asked == [31, 60, 61, 61, 300])
    }

    @Test("makes ahead a sixteenth of the list per call, in one batch, and leaves HOTP codes to be asked for")
    func aheadBudget() {
        let cache = TimeStepCodeCache(generating: generator)
        let accounts = (1...32).map { Account.row($0, issuer: "A\($0)") }
        _ = cache.execute(for: accounts, at: Date(timeIntervalSince1970: 31))
        #expect(generator.asked == [31])
        _ = cache.execute(for: accounts, at: Date(timeIntervalSince1970: 32))
        #expect(generator.asked == [31, 62])
        let hotp = Account.row(40, issuer: "H", kind: .hotp(counter: 3))
        #expect(cache.execute(for: hotp, at: Date(timeIntervalSince1970: 33)) == GeneratedCode(waitingForRequest: hotp))
    }
}

/// Domain's GenerateCodes over CounterEchoHMAC, recording the moment of every call.
final class CountingGenerateCodes: GenerateCodesUseCase {
    private let generator = DefaultGenerateCodesUseCase(hmac: CounterEchoHMAC())
    private let moments = Mutex<[Double]>([])

    /// The moment of every call, in order.
    var asked: [Double] { moments.withLock { $0 } }

    func execute(for accounts: [Account], at date: Date) -> [GeneratedCode] {
        if accounts.contains(where: { $0.kind.period != nil }) { moments.withLock { $0.append(date.timeIntervalSince1970) } }
        return generator.execute(for: accounts, at: date)
    }
}
