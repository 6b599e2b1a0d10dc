import Foundation
import SyncServer
import SyncServerTestSupport
import Testing

/// The server's rules, as pure functions: what a push may hold, compare-and-set, the limits.
@Suite("Sync server rules")
struct SyncRulesTests {
    let limits = SyncLimits()

    @Test("a push holds 1 to 100 changes, each with a 12-byte nonce and a bounded ciphertext")
    func pushShape() throws {
        try ChangeValidation.check([ServerSamples.change(1, "a")], limits: limits)
        try ChangeValidation.check((1...100).map { ServerSamples.change(UInt8($0), "x") }, limits: limits)
        #expect(throws: SyncServerError.tooManyChanges(limit: 100)) {
            try ChangeValidation.check((0...100).map { ServerSamples.change(UInt8($0), "x") }, limits: limits)
        }
        #expect(throws: SyncServerError.invalid("a push needs at least one change")) {
            try ChangeValidation.check([], limits: limits)
        }
        let shortNonce = EntryChange(
            id: EntryID(ServerSamples.uuid(1)), basedOn: 0,
            payload: EntryPayload(isDeleted: false, keyVersion: 1, nonce: [1, 2, 3], ciphertext: [1]))
        #expect(throws: SyncServerError.invalid("a nonce has 12 bytes")) { try ChangeValidation.check([shortNonce], limits: limits) }
        let big = ServerSamples.change(1, String(repeating: "x", count: limits.ciphertextBytes + 1))
        #expect(throws: SyncServerError.payloadTooLarge(limit: limits.ciphertextBytes)) {
            try ChangeValidation.check([big], limits: limits)
        }
        #expect(throws: SyncServerError.self) { try ChangeValidation.check([ServerSamples.change(1, basedOn: -1, "a")], limits: limits) }
        try ChangeValidation.check([ServerSamples.change(1, basedOn: 3, "", deleted: true)], limits: limits)
    }

    @Test("compare-and-set: a missing entry takes any change; a stored one only a change based on it, or its own bytes again")
    func compareAndSet() {
        let stored = SyncEntry(
            id: EntryID(ServerSamples.uuid(1)), sequence: 5, payload: ServerSamples.payload("v2", nonce: 2),
            changedAt: Date(timeIntervalSince1970: 0))
        #expect(PushDecision.decide(ServerSamples.change(1, basedOn: 9, "new"), stored: nil) == .write)
        #expect(PushDecision.decide(ServerSamples.change(1, basedOn: 5, "v3"), stored: stored) == .write)
        #expect(PushDecision.decide(ServerSamples.change(1, basedOn: 4, "v2", nonce: 2), stored: stored) == .alreadyApplied(sequence: 5))
        #expect(PushDecision.decide(ServerSamples.change(1, basedOn: 4, "other"), stored: stored) == .conflict(current: stored))
        #expect(PushDecision.decide(ServerSamples.change(1, basedOn: 0, "v2", nonce: 3), stored: stored) == .conflict(current: stored))
    }

    @Test("enrolment: refused past either limit, with when to retry")
    func enrolmentLimit() throws {
        try EnrolmentLimit.check(accountAttempts: 10, addressAttempts: 30, limits: limits)
        #expect(throws: SyncServerError.rateLimited(retryAfterSeconds: 3600)) {
            try EnrolmentLimit.check(accountAttempts: 11, addressAttempts: 1, limits: limits)
        }
        #expect(throws: SyncServerError.rateLimited(retryAfterSeconds: 3600)) {
            try EnrolmentLimit.check(accountAttempts: 1, addressAttempts: 31, limits: limits)
        }
    }

    @Test("device names: 1 to 64 Unicode scalars (as the document's maxLength counts), no control characters (C0, DEL, C1)")
    func deviceNames() throws {
        try DeviceName.check("laptop")
        try DeviceName.check("Zoë's desk")
        // 22 Japanese characters: 66 bytes of UTF-8, 22 code points.
        try DeviceName.check(String(repeating: "日本語", count: 7) + "机")
        try DeviceName.check(String(repeating: "x", count: 64))
        for bad in ["", String(repeating: "x", count: 65), "evil\u{1B}[2J", "tab\there", "del\u{7F}", "c1\u{9B}31m"] {
            #expect(throws: SyncServerError.self) { try DeviceName.check(bad) }
        }
    }

    @Test("secrets are exactly 32 bytes and never printed; digests compare whole")
    func secrets() {
        #expect(SyncSecret(bytes: Array(repeating: 1, count: 31)) == nil)
        let secret = ServerSamples.secret(0xAB)
        #expect("\(secret)" == "SyncSecret(redacted)")
        #expect(String(reflecting: secret) == "SyncSecret(redacted)")
        #expect(!"\([secret])".contains("171"))
        let digest = SecretDigest(bytes: [1, 2, 3])
        #expect(digest.matches(SecretDigest(bytes: [1, 2, 3])))
        #expect(!digest.matches(SecretDigest(bytes: [1, 2, 4])))
        #expect(!digest.matches(SecretDigest(bytes: [1, 2])))
    }
}
