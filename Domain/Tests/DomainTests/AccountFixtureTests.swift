import Domain
import DomainTestSupport
import Foundation
import Testing

/// The fully populated account the round-trip tests of every package use: it must set every
/// stored property of `Account`, or a field added later would pass them all unmapped.
@Suite("The fully populated account fixture")
struct AccountFixtureTests {
    @Test(
        "every stored property of Account is set away from its default (read by reflection: a new property fails here until the fixture sets it)"
    )
    func everyPropertySet() {
        let full = Mirror(reflecting: Account.fullyPopulated).children
        // Compared as values (a secret's description is redacted), every property being Hashable.
        let plain = Dictionary(
            uniqueKeysWithValues: Mirror(reflecting: Account.plain).children.map { ($0.label!, $0.value as? AnyHashable) })
        #expect(full.count == plain.count && full.count >= 12)
        for child in full {
            let label = child.label ?? "?"
            let value = child.value as? AnyHashable
            #expect(value != nil && value != plain[label], "Account.fullyPopulated leaves \(label) at its default: set it")
        }
    }

    @Test("it is a valid account (every path accepts it): HOTP, a counter past 0, 8 digits, SHA-512")
    func valid() throws {
        let spec = try AccountSpec(
            issuer: Account.fullyPopulated.issuer, name: Account.fullyPopulated.name, secret: Account.fullyPopulated.secret,
            kind: Account.fullyPopulated.kind, algorithm: Account.fullyPopulated.algorithm, digits: Account.fullyPopulated.digits)
        #expect(spec.digits == 8)
    }

    @Test("the sync record of the fixture and back: every field")
    func syncRecordRoundTrip() {
        let stamp = HybridTimestamp(milliseconds: 1_700_000_600_000, device: UUID(uuidString: "00000000-0000-4000-8000-0000000000AA")!)
        let record = SyncRecording.record(for: Account.fullyPopulated, at: FractionalPosition("U")!, stamp: stamp)
        let back = SyncRecording.account(from: record, previous: Account.fullyPopulated)
        #expect(back == Account.fullyPopulated)
        // A new machine has no previous account: everything but the creation date (the key's stamp).
        var fresh = SyncRecording.account(from: record, previous: nil)
        fresh?.createdAt = Account.fullyPopulated.createdAt
        fresh?.updatedAt = Account.fullyPopulated.updatedAt
        #expect(fresh == Account.fullyPopulated)
        // Merged with itself edited elsewhere in nothing: the same.
        #expect(SyncMerge.merge(base: record, local: record, remote: record).merged == record)
    }
}
