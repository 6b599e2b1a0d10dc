import Domain
import Foundation
import Testing

@testable import SyncModelTestSupport

/// The model check's oracle on its own: what it forgets when a restore loses a write, and what
/// it must judge again when the server's backup brings that write back.
@Suite("The model check's ledger")
struct ModelLedgerTests {
    static let id = UUID(uuidString: "00000000-0000-4000-8000-000000000001")!
    static let device = UUID(uuidString: "00000000-0000-4000-8000-0000000000AA")!

    /// The entry as added (favourite false), or with the favourite set later (true).
    static func record(favorite: Bool) -> SyncRecord {
        let added = HybridTimestamp(milliseconds: 1_000, device: device)
        let at = favorite ? HybridTimestamp(milliseconds: 2_000, device: device) : added
        return SyncRecord(
            id: id,
            key: Stamped(
                KeyMaterial(secret: Secret(bytes: Array("12345678901234567890".utf8)), kind: .hotp, algorithm: .sha1, digits: 6),
                changedAt: added),
            counter: 0, issuer: Stamped("Bank", changedAt: added), name: Stamped("me", changedAt: added),
            note: Stamped("", changedAt: added), isFavorite: Stamped(favorite, changedAt: at), groups: Stamped([], changedAt: added),
            position: Stamped(FractionalPosition("U")!, changedAt: added), isDeleted: Stamped(false, changedAt: added))
    }

    /// A ledger where machine 0 added the entry, then set its favourite.
    static func ledger() -> ModelLedger {
        var ledger = ModelLedger()
        ledger.add(id)
        ledger.record(before: nil, after: record(favorite: false), machine: 0)
        ledger.record(before: record(favorite: false), after: record(favorite: true), machine: 0)
        return ledger
    }

    @Test("a write no machine and not the server holds any more is forgotten: the entry without it is right")
    func restoreForgets() {
        var ledger = Self.ledger()
        #expect(!ledger.violations(in: [Self.id: Self.record(favorite: false)]).isEmpty)
        ledger.keepHeld(by: [[Self.id: Self.record(favorite: false)], [:]])
        #expect(ledger.violations(in: [Self.id: Self.record(favorite: false)]).isEmpty)
    }

    @Test("a forgotten write that the server's restored backup holds is judged again; one it does not hold stays forgotten")
    func restoredBackupRecalls() {
        var ledger = Self.ledger()
        ledger.backedUp()
        ledger.keepHeld(by: [[Self.id: Self.record(favorite: false)], [:]])
        var restored = ledger
        restored.recallParked()
        restored.keepHeld(by: [[Self.id: Self.record(favorite: false)], [Self.id: Self.record(favorite: true)]])
        #expect(restored.violations(in: [Self.id: Self.record(favorite: true)]).isEmpty)
        #expect(
            restored.violations(in: [Self.id: Self.record(favorite: false)]) == ["000001 favourite: false instead of true, written by M0"])
        ledger.recallParked()
        ledger.keepHeld(by: [[Self.id: Self.record(favorite: false)], [:]])
        #expect(ledger.violations(in: [Self.id: Self.record(favorite: false)]).isEmpty)
    }

    @Test("a write made after the backup, or forgotten before the backup was taken, does not come back with it")
    func onlyWhatTheBackupCanHold() {
        for backupFirst in [true, false] {
            var ledger = Self.ledger()
            if backupFirst {
                var early = ModelLedger()
                early.backedUp()
                early.add(Self.id)
                early.record(before: nil, after: Self.record(favorite: false), machine: 0)
                early.record(before: Self.record(favorite: false), after: Self.record(favorite: true), machine: 0)
                ledger = early
            }
            ledger.keepHeld(by: [[Self.id: Self.record(favorite: false)], [:]])
            if !backupFirst { ledger.backedUp() }
            ledger.recallParked()
            ledger.keepHeld(by: [[Self.id: Self.record(favorite: false)], [Self.id: Self.record(favorite: true)]])
            #expect(ledger.violations(in: [Self.id: Self.record(favorite: false)]).isEmpty, "backup first: \(backupFirst)")
        }
    }

    @Test("a key is held only where that very key is: another key written under the same stamp does not hold it")
    func keyHeldByValue() {
        var ledger = Self.ledger()
        let lost = Self.record(favorite: false)
        let other = SyncRecord(
            id: UUID(uuidString: "00000000-0000-4000-8000-000000000002")!,
            key: Stamped(
                KeyMaterial(secret: Secret(bytes: Array("another secret, same stamp".utf8)), kind: .hotp, algorithm: .sha1, digits: 6),
                changedAt: lost.key.changedAt),
            counter: 0, issuer: lost.issuer, name: lost.name, note: lost.note, isFavorite: lost.isFavorite, groups: lost.groups,
            position: lost.position, isDeleted: lost.isDeleted)
        ledger.keepHeld(by: [[other.id: other], [:]])
        #expect(ledger.violations(in: [other.id: other]).isEmpty, "the lost entry's writes, its key too, are forgotten")
    }
}
