import Domain
import DomainTestSupport
import Foundation
import Testing

/// Local changes as sync records, and records as accounts again.
@Suite("Recording local changes for sync")
struct SyncRecordingTests {
    let device = UUID(uuidString: "00000000-0000-4000-8000-000000000900")!
    func stamp(_ ms: Int64) -> HybridTimestamp { HybridTimestamp(milliseconds: ms, device: device) }

    @Test("an edit stamps only the fields whose value changed; the HOTP counter only grows")
    func editStampsChangedFields() throws {
        let account = Account.stub(kind: .hotp(counter: 5), groups: ["Work", "Home"])
        let record = SyncRecording.record(for: account, at: FractionalPosition("V")!, stamp: stamp(1))
        var edited = account
        edited.note = "desk"
        edited.groups = ["Home", "Work"]
        edited.kind = .hotp(counter: 3)
        let updated = SyncRecording.updating(record, to: edited, stamp: stamp(2))
        #expect(updated.note == Stamped("desk", changedAt: stamp(2)))
        #expect(updated.groups == record.groups && updated.key == record.key && updated.issuer == record.issuer)
        #expect(updated.counter == 5)
        #expect(SyncRecording.updating(record, to: account, stamp: stamp(3)) == record)
    }

    @Test("a new secret records the stamps of the keys it replaced, latest first; other edits leave them as they were")
    func keyHistory() throws {
        let account = Account.stub()
        let record = SyncRecording.record(for: account, at: FractionalPosition("V")!, stamp: stamp(1))
        #expect(record.keyHistory.isEmpty)
        var rekeyed = account
        rekeyed.secret = Secret(bytes: Array("another secret 12345".utf8))
        let updated = SyncRecording.updating(record, to: rekeyed, stamp: stamp(2))
        #expect(updated.keyHistory == [stamp(1)] && updated.key.changedAt == stamp(2))
        var noted = rekeyed
        noted.note = "later"
        #expect(SyncRecording.updating(updated, to: noted, stamp: stamp(3)).keyHistory == [stamp(1)])
        var again = noted
        again.secret = Secret(bytes: Array("a third secret 12345".utf8))
        #expect(SyncRecording.updating(updated, to: again, stamp: stamp(4)).keyHistory == [stamp(2), stamp(1)])
    }

    @Test("a record becomes the account it was made from (dates kept), and a deleted one none")
    func roundTrip() throws {
        let account = Account.stub(kind: .hotp(counter: 9), algorithm: .sha256, digits: 8, note: "n", isFavorite: true, groups: ["B", "A"])
        let record = SyncRecording.record(for: account, at: FractionalPosition("V")!, stamp: stamp(1_700_000_000_000))
        #expect(SyncRecording.account(from: record, previous: account) == account)
        let fresh = try #require(SyncRecording.account(from: record, previous: nil))
        #expect(fresh.createdAt == Date(timeIntervalSince1970: 1_700_000_000) && fresh.groups == ["A", "B"])
        #expect(fresh.kind == .hotp(counter: 9) && fresh.secret == account.secret && fresh.digits == 8)
        #expect(SyncRecording.account(from: SyncRecording.deleting(record, stamp: stamp(2)), previous: account) == nil)
    }

    @Test(
        "text another device synced comes through the text rule: every hostile sequence is removed from the account, the record keeps it",
        arguments: HostileText.corpus.map(\.text))
    func syncedTextIsCleaned(hostile: String) throws {
        var record = SyncRecording.record(for: Account.stub(note: "n", groups: ["A"]), at: FractionalPosition("V")!, stamp: stamp(1))
        record.issuer = Stamped(hostile, changedAt: stamp(2))
        record.name = Stamped("me" + hostile, changedAt: stamp(2))
        record.note = Stamped(hostile, changedAt: stamp(2))
        record.groups = Stamped(["A", hostile], changedAt: stamp(2))
        #expect(SyncRecording.hasForbiddenText(record))
        let account = try #require(SyncRecording.account(from: record, previous: nil))
        for text in [account.issuer, account.name, account.note] + account.groups {
            #expect(!AccountText.containsForbidden(text), "\(text.debugDescription)")
        }
        #expect(!SyncRecording.hasForbiddenText(SyncRecording.record(for: account, at: FractionalPosition("V")!, stamp: stamp(3))))
    }

    @Test("a reorder moves only the entries that left the longest run already in order", arguments: 0..<50)
    func reorderMovesFew(seed: UInt64) {
        var random = SplitMix(seed: seed)
        let ids = (0..<12).map { UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", $0))! }
        let positions = FractionalPosition.spread(ids.count)
        let current = Dictionary(uniqueKeysWithValues: zip(ids, positions))
        var order = ids
        let moved = order.remove(at: Int(random.next() % 12))
        order.insert(moved, at: Int(random.next() % 12))
        let next = SyncRecording.positions(for: order, current: current)
        #expect(order.map { next[$0]! } == order.map { next[$0]! }.sorted())
        #expect(ids.filter { next[$0] != current[$0] }.count <= 1)
    }

    @Test("positions appended after the last one stay short however many come at once")
    func appending() {
        let last = FractionalPosition("yV")!
        let positions = SyncRecording.positions(appending: 10_000, after: last)
        #expect(positions.first! > last && positions == positions.sorted() && Set(positions).count == 10_000)
        #expect(positions.map(\.digits.count).max()! <= 6)
        let joined = SyncRecording.initialPositions(count: 3, joining: true)
        #expect(SyncRecording.initialPositions(count: 500, joining: false).allSatisfy { $0 < joined[0] })
    }
}
