import Domain
import Testing

/// Unlock: failures in a row make the next try wait longer; a success starts again from none.
@Suite("Unlock: failures in a row and the wait they cost")
struct UnlockUseCaseTests {
    /// A lock whose passphrase is "right".
    struct PassphraseLock: AccountStoreLock {
        struct Wrong: Error, CustomStringConvertible { var description: String { "wrong passphrase" } }
        var requiresUnlock: Bool { true }
        func unlock(passphrase: [UInt8]) async throws { if passphrase != Array("right".utf8) { throw Wrong() } }
        func lock() async {}
    }

    static func failure(_ useCase: DefaultUnlockUseCase, _ passphrase: String) async -> UnlockFailure? {
        do {
            try await useCase.execute(passphrase: Array(passphrase.utf8))
            return nil
        } catch {
            return error as? UnlockFailure
        }
    }

    @Test("two wrong tries cost nothing, then 1 s, 2 s, 4 s…; the store's reason is kept; a success resets")
    func throttle() async throws {
        let useCase = DefaultUnlockUseCase(lock: PassphraseLock())
        var waits: [Duration] = []
        for _ in 0..<5 {
            let failure = try #require(await Self.failure(useCase, "wrong"))
            #expect("\(failure)" == "wrong passphrase")
            waits.append(failure.retryAfter)
        }
        #expect(waits == [.zero, .zero, .seconds(1), .seconds(2), .seconds(4)])
        #expect(await Self.failure(useCase, "right") == nil)
        let afterSuccess = try #require(await Self.failure(useCase, "wrong"))
        #expect(afterSuccess.failuresInARow == 1 && afterSuccess.retryAfter == .zero)
    }

    @Test("the wait stops growing at 30 s")
    func ceiling() {
        #expect(UnlockThrottle.delay(afterFailures: 8) == .seconds(30))
        #expect(UnlockThrottle.delay(afterFailures: 100) == .seconds(30))
    }
}
