import Domain
import Foundation
import Testing

/// Which entries a partial sync round may take alone, and the twins a store must know of before
/// one starts.
@Suite("Sync partial round's rules")
struct SyncPartialRoundTests {
    typealias M = SyncMergeTests
    static let base = RemoteEntry(sequence: 4, record: M.base, version: 2)

    @Test("an entry with its base's key and deletion goes alone; a new one, a key changed or a deletion does not")
    func holds() {
        var edited = M.base
        edited.note = Stamped("moved desks", changedAt: M.at(2_000))
        #expect(SyncPartialRound.holds(edited, base: Self.base))
        #expect(!SyncPartialRound.holds(edited, base: nil))
        var rekeyed = M.base
        rekeyed.key = Stamped(M.key(9), changedAt: M.at(2_000))
        #expect(!SyncPartialRound.holds(rekeyed, base: Self.base))
        var restamped = M.base
        restamped.key = Stamped(M.key(1), changedAt: M.at(2_000, M.desktop))
        #expect(!SyncPartialRound.holds(restamped, base: Self.base), "the same key set again by another device")
        var deleted = M.base
        deleted.isDeleted = Stamped(true, changedAt: M.at(2_000))
        #expect(!SyncPartialRound.holds(deleted, base: Self.base))
    }

    @Test("twins of one key added on two devices remain to fold; one entry, or twins one device made, do not")
    func twinsRemain() {
        let one = M.base
        var other = M.base
        other = SyncRecord(
            id: UUID(uuidString: "00000000-0000-4000-8000-000000000002")!, key: Stamped(M.key(1), changedAt: M.at(1_500, M.desktop)),
            counter: 0, issuer: other.issuer, name: other.name, note: other.note, isFavorite: other.isFavorite, groups: other.groups,
            position: other.position, isDeleted: other.isDeleted)
        let bases = [one.id: Self.base, other.id: RemoteEntry(sequence: 5, record: other, version: 1)]
        #expect(!SyncPartialRound.twinsRemain(in: [one.id: one], bases: bases))
        #expect(SyncPartialRound.twinsRemain(in: [one.id: one, other.id: other], bases: bases))
        var sameDevice = other
        sameDevice.key = Stamped(M.key(1), changedAt: M.at(1_500))
        #expect(!SyncPartialRound.twinsRemain(in: [one.id: one, other.id: sameDevice], bases: bases))
        #expect(!SyncPartialRound.twinsRemain(in: [one.id: one, other.id: other], bases: [one.id: Self.base]), "one never sent")
    }
}
