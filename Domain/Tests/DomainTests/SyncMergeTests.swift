import Domain
import DomainTestSupport
import Foundation
import Testing

/// The sync merge, without crypto or network: hybrid clocks, positions, and the three-way merge
/// of one entry, which must give every machine the same result.
@Suite("Sync merge")
struct SyncMergeTests {
    static let laptop = UUID(uuidString: "00000000-0000-4000-8000-0000000000AA")!
    static let desktop = UUID(uuidString: "00000000-0000-4000-8000-0000000000BB")!
    static let id = UUID(uuidString: "00000000-0000-4000-8000-000000000001")!

    static func at(_ milliseconds: Int64, _ device: UUID = laptop) -> HybridTimestamp {
        HybridTimestamp(milliseconds: milliseconds, device: device)
    }

    static func key(_ byte: UInt8, kind: KeyMaterial.Kind = .hotp) -> KeyMaterial {
        KeyMaterial(secret: Secret(bytes: [byte, byte, byte]), kind: kind, algorithm: .sha1, digits: 6)
    }

    /// The entry as both machines last agreed on it, every field stamped at 1 000 ms.
    static let base = SyncRecord(
        id: id, key: Stamped(key(1), changedAt: at(1_000)), counter: 5, issuer: Stamped("GitHub", changedAt: at(1_000)),
        name: Stamped("me", changedAt: at(1_000)), note: Stamped("", changedAt: at(1_000)),
        isFavorite: Stamped(false, changedAt: at(1_000)), groups: Stamped(["work", "code"], changedAt: at(1_000)),
        position: Stamped(FractionalPosition("U")!, changedAt: at(1_000)), isDeleted: Stamped(false, changedAt: at(1_000)))

    /// The merge both ways round, checked to agree; the result.
    static func merged(
        base: SyncRecord? = base, _ local: SyncRecord, _ remote: SyncRecord, sourceLocation: SourceLocation = #_sourceLocation
    )
        -> EntryMerge
    {
        let one = SyncMerge.merge(base: base, local: local, remote: remote)
        let other = SyncMerge.merge(base: base, local: remote, remote: local)
        #expect(one == other, "the merge must not depend on which side is local", sourceLocation: sourceLocation)
        return one
    }

    @Test("found by the faulty-network convergence run: a delete keeps the larger HOTP counter of the two sides holding its key")
    func counterSurvivesDeletes() {
        var usedThenDeleted = Self.base
        usedThenDeleted.counter = 9
        usedThenDeleted.isDeleted = Stamped(true, changedAt: Self.at(2_000))
        var deletedLater = Self.base
        deletedLater.isDeleted = Stamped(true, changedAt: Self.at(3_000, Self.desktop))
        #expect(Self.merged(usedThenDeleted, deletedLater).merged.counter == 9)
        var edited = Self.base
        edited.note = Stamped("still used", changedAt: Self.at(2_500, Self.desktop))
        let revived = Self.merged(usedThenDeleted, edited).merged
        #expect(!revived.isDeleted.value && revived.counter == 9 && revived.note.value == "still used")
    }

    @Test(
        "found by the lifecycle model check: a copy older than the base (re-sent after the server garbled the entry) does not undo the base's edit"
    )
    func staleCopyIsNoChange() {
        var stale = Self.base
        stale.issuer = Stamped("GitHub (old)", changedAt: Self.at(500, Self.desktop))
        stale.counter = 7
        let merge = Self.merged(Self.base, stale)
        #expect(merge.merged.issuer == Self.base.issuer, "the later edit stands")
        #expect(merge.merged.counter == 7, "codes used on the stale side still count")
        var later = Self.base
        later.issuer = Stamped("GitHub Inc", changedAt: Self.at(1_500, Self.desktop))
        #expect(Self.merged(Self.base, later).merged.issuer == later.issuer, "a change after the base is taken as before")
    }

    @Test(
        "found by the faulty-network convergence run: a side that restamped the key it had did not change it, so the other side's new key is kept"
    )
    func restampedKeyIsNoChange() {
        var rekeyed = Self.base
        rekeyed.key = Stamped(Self.key(2), changedAt: Self.at(2_000))
        var restamped = Self.base
        restamped.key = Stamped(Self.key(1), changedAt: Self.at(3_000, Self.desktop))
        let merge = Self.merged(rekeyed, restamped)
        #expect(merge.merged.key.value == Self.key(2) && merge.conflictCopy == nil)
    }

    @Test("found by the lifecycle model check: an edit that revives a deleted entry keeps what the deleting side edited before it deleted")
    func revivalKeepsTheDeletersEdits() {
        var editedThenDeleted = Self.base
        editedThenDeleted.isFavorite = Stamped(true, changedAt: Self.at(2_000))
        editedThenDeleted.isDeleted = Stamped(true, changedAt: Self.at(2_500))
        var edited = Self.base
        edited.name = Stamped("work account", changedAt: Self.at(2_200, Self.desktop))
        let revived = Self.merged(editedThenDeleted, edited).merged
        #expect(!revived.isDeleted.value && revived.isFavorite.value && revived.name.value == "work account")
    }

    @Test(
        "found by the lifecycle model check: against a base older than what the deleting side saw, a field it wrote later itself is no edit: the delete stands"
    )
    func staleFieldDoesNotRevive() {
        // The deleting side named it twice (the second after the first reached the other side),
        // then deleted; the server lost what it knew, so the base is from before both.
        var seenThenDeleted = Self.base
        seenThenDeleted.name = Stamped("second", changedAt: Self.at(3_000))
        seenThenDeleted.isDeleted = Stamped(true, changedAt: Self.at(4_000))
        var stale = Self.base
        stale.name = Stamped("first", changedAt: Self.at(2_000))
        #expect(Self.merged(seenThenDeleted, stale).merged.isDeleted.value)
        // The same for a field a newer build wrote (kept by the others, unread).
        var unknownLater = Self.base
        unknownLater.unknown = Self.archived("step 2", at: 3_000)
        unknownLater.isDeleted = Stamped(true, changedAt: Self.at(4_000))
        var unknownStale = Self.base
        unknownStale.unknown = Self.archived("step 1", at: 2_000)
        #expect(Self.merged(unknownLater, unknownStale).merged.isDeleted.value)
        // A later edit of the same field still revives it.
        var renamedLater = Self.base
        renamedLater.name = Stamped("third", changedAt: Self.at(5_000, Self.desktop))
        #expect(!Self.merged(seenThenDeleted, renamedLater).merged.isDeleted.value)
    }

    static func archived(_ value: String, at milliseconds: Int64) -> SyncUnknownParts {
        SyncUnknownParts(fields: ["archived": .init(json: "\"\(value)\"", changedAt: Self.at(milliseconds))])
    }

    @Test("found by the lifecycle model check: two deletes merge every field, so a later revival finds both sides' edits")
    func tombstonesMergeTheirFields() {
        var notedThenDeleted = Self.base
        notedThenDeleted.note = Stamped("recovery codes in the safe", changedAt: Self.at(2_000))
        notedThenDeleted.isDeleted = Stamped(true, changedAt: Self.at(2_100))
        var deletedLater = Self.base
        deletedLater.isDeleted = Stamped(true, changedAt: Self.at(3_000, Self.desktop))
        let tombstone = Self.merged(notedThenDeleted, deletedLater).merged
        #expect(tombstone.isDeleted == deletedLater.isDeleted && tombstone.note.value == "recovery codes in the safe")
        var renamed = Self.base
        renamed.name = Stamped("renamed elsewhere", changedAt: Self.at(1_500, Self.desktop))
        let revived = Self.merged(tombstone, renamed).merged
        #expect(!revived.isDeleted.value && revived.note.value == "recovery codes in the safe" && revived.name.value == "renamed elsewhere")
    }

    @Test("a hybrid clock moves on when the wall clock stands still or goes back, and after what it has seen")
    func hybridClock() {
        let first = Self.at(5_000)
        let sameMillisecond = first.next(now: 5_000)
        let clockWentBack = sameMillisecond.next(now: 4_000)
        #expect(first < sameMillisecond && sameMillisecond < clockWentBack)
        #expect(clockWentBack.next(now: 9_000) == Self.at(9_000))
        let heard = Self.at(4_000).receiving(Self.at(7_000, Self.desktop), now: 3_000)
        #expect(heard > Self.at(7_000, Self.desktop) && heard.device == Self.laptop)
        #expect(Self.at(7_000, Self.laptop) < Self.at(7_000, Self.desktop))
    }

    @Test("a position fits between any two, and a first order spreads short, increasing positions")
    func positions() throws {
        var generator = SplitMix(seed: 7)
        var sorted = [FractionalPosition.between(nil, nil)]
        for _ in 0..<2_000 {
            let slot = Int.random(in: 0...sorted.count, using: &generator)
            let lower = slot > 0 ? sorted[slot - 1] : nil
            let upper = slot < sorted.count ? sorted[slot] : nil
            let new = FractionalPosition.between(lower, upper)
            #expect(lower.map { $0 < new } ?? true, "\(String(describing: lower)) < \(new)")
            #expect(upper.map { new < $0 } ?? true, "\(new) < \(String(describing: upper))")
            #expect(FractionalPosition(new.digits) == new)
            sorted.insert(new, at: slot)
        }
        let spread = FractionalPosition.spread(10_000)
        #expect(zip(spread, spread.dropFirst()).allSatisfy { $0 < $1 })
        #expect(spread.allSatisfy { $0.digits.count <= 4 })
        #expect(FractionalPosition("A0") == nil && FractionalPosition("a-b") == nil && FractionalPosition("") == nil)
    }

    @Test("each field: a side that left it as in the base takes the other's; changed on both, the later change wins")
    func fields() {
        var local = Self.base
        local.issuer = Stamped("GitHub Inc.", changedAt: Self.at(2_000))
        local.note = Stamped("laptop's note", changedAt: Self.at(3_000))
        var remote = Self.base
        remote.name = Stamped("me@example.com", changedAt: Self.at(2_500, Self.desktop))
        remote.note = Stamped("desktop's note", changedAt: Self.at(4_000, Self.desktop))
        let result = Self.merged(local, remote)
        #expect(result.merged.issuer.value == "GitHub Inc." && result.merged.name.value == "me@example.com")
        #expect(result.merged.note.value == "desktop's note" && result.conflictCopy == nil)
    }

    @Test("groups merge as sets: what either side added, less what either removed")
    func groups() {
        var local = Self.base
        local.groups = Stamped(["work", "code", "personal"], changedAt: Self.at(2_000))
        var remote = Self.base
        remote.groups = Stamped(["work"], changedAt: Self.at(2_000, Self.desktop))
        #expect(Self.merged(local, remote).merged.groups.value == ["work", "personal"])
        #expect(Self.merged(base: nil, local, remote).merged.groups.value == ["work", "code", "personal"])
    }

    @Test("an edit since the base beats a delete; a delete of an entry the other side left alone stands")
    func editBeatsDelete() {
        var deleted = Self.base
        deleted.isDeleted = Stamped(true, changedAt: Self.at(9_000))
        var edited = Self.base
        edited.note = Stamped("still needed", changedAt: Self.at(2_000, Self.desktop))
        let kept = Self.merged(deleted, edited).merged
        #expect(!kept.isDeleted.value && kept.note.value == "still needed" && kept.key == Self.base.key)
        #expect(Self.merged(deleted, Self.base).merged.isDeleted.value)
        var alsoDeleted = Self.base
        alsoDeleted.isDeleted = Stamped(true, changedAt: Self.at(5_000, Self.desktop))
        #expect(Self.merged(deleted, alsoDeleted).merged.isDeleted.value)
    }

    @Test("the HOTP counter is the larger, each side having used consecutive counters from the base")
    func counter() {
        var local = Self.base
        local.counter = 9
        var remote = Self.base
        remote.counter = 7
        remote.name = Stamped("renamed", changedAt: Self.at(2_000, Self.desktop))
        let result = Self.merged(local, remote).merged
        #expect(result.counter == 9 && result.name.value == "renamed")
    }

    @Test(
        "a key changed on one side only is taken with that side's counter; changed on both, the later keeps the entry and the other becomes a conflict copy"
    )
    func keys() throws {
        var rekeyed = Self.base
        rekeyed.key = Stamped(Self.key(2), changedAt: Self.at(2_000))
        rekeyed.counter = 0
        var used = Self.base
        used.counter = 12
        let one = Self.merged(rekeyed, used)
        #expect(one.merged.key.value == Self.key(2) && one.merged.counter == 0 && one.conflictCopy == nil)

        var other = Self.base
        other.key = Stamped(Self.key(3, kind: .totp(period: 30)), changedAt: Self.at(3_000, Self.desktop))
        other.counter = 0
        let both = Self.merged(rekeyed, other)
        #expect(both.merged.id == Self.id && both.merged.key.value == Self.key(3, kind: .totp(period: 30)))
        let copy = try #require(both.conflictCopy)
        #expect(copy.key.value == Self.key(2) && copy.id != Self.id && copy.issuer == both.merged.issuer && !copy.isDeleted.value)
        // Without a base (after a full resync) two different keys are a conflict too.
        #expect(Self.merged(base: nil, rekeyed, other).conflictCopy?.id == copy.id)
    }

    @Test("seeded random edits on both sides: the merge is the same both ways round, and no key is lost", arguments: 0..<200)
    func symmetric(seed: Int) {
        var generator = SplitMix(seed: UInt64(seed))
        let local = Self.randomEdit(of: Self.base, by: Self.laptop, using: &generator)
        let remote = Self.randomEdit(of: Self.base, by: Self.desktop, using: &generator)
        let result = Self.merged(local, remote)
        let kept = [result.merged.key.value] + (result.conflictCopy.map { [$0.key.value] } ?? [])
        // A key one side changed survives, unless that side itself deleted the entry.
        for side in [local, remote] where side.key != Self.base.key && !side.isDeleted.value {
            #expect(kept.contains(side.key.value), "seed \(seed): a changed key was lost")
        }
    }

    static func randomEdit(of base: SyncRecord, by device: UUID, using generator: inout SplitMix) -> SyncRecord {
        var record = base
        var time: Int64 = 1_000
        func stamp() -> HybridTimestamp {
            time += Int64.random(in: 1...3, using: &generator)
            return HybridTimestamp(milliseconds: time, device: device)
        }
        let tag = device == laptop ? "L" : "D"
        if Bool.random(using: &generator) { record.issuer = Stamped("issuer \(tag)", changedAt: stamp()) }
        if Bool.random(using: &generator) { record.note = Stamped("note \(tag)", changedAt: stamp()) }
        if Bool.random(using: &generator) { record.isFavorite = Stamped(true, changedAt: stamp()) }
        if Bool.random(using: &generator) { record.groups = Stamped(["group \(tag)"], changedAt: stamp()) }
        if Bool.random(using: &generator) { record.counter += UInt64.random(in: 1...5, using: &generator) }
        if Int.random(in: 0..<4, using: &generator) == 0 { record.key = Stamped(key(tag == "L" ? 7 : 8), changedAt: stamp()) }
        if Int.random(in: 0..<6, using: &generator) == 0 { record.isDeleted = Stamped(true, changedAt: stamp()) }
        return record
    }

    @Test(
        "found by the lifecycle model check (seed 205867837): without a base, a key the other side replaced knowingly is no conflict; no copy of it with a counter from before codes were used"
    )
    func knowinglyReplacedKeyWithoutBase() {
        var used = Self.base
        used.counter = 0
        var replaced = Self.base
        replaced.counter = 3
        replaced.key = Stamped(Self.key(2), changedAt: Self.at(5_000, Self.desktop))
        replaced.keyHistory = [Self.base.key.changedAt]
        let merge = Self.merged(base: nil, used, replaced)
        #expect(merge.merged.key == replaced.key)
        #expect(merge.conflictCopy == nil)
    }
}
