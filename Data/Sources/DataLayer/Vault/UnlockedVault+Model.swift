import Domain
import Foundation
import GRDB

/// A copy of an in-memory vault as it was at one moment (a backup, an old disk), to open later.
package struct VaultCopy: Sendable {
    fileprivate let database: DatabaseQueue
    fileprivate let keys: VaultKeys
}

/// What the sync lifecycle model (SyncModelTestSupport, in this package) reads of a vault and
/// does to it beyond the ports: its sync journal, copies taken and opened again, and a field
/// only a newer build knows.
extension UnlockedVault {
    /// The sync journal's records, tombstones too, member or not.
    package func syncRecords() throws -> [UUID: SyncRecord] {
        try read { db, keys, _ in try VaultSyncTables(db: db, keys: keys).entries().mapValues(\.state.record) }
    }

    /// The enrolment of this vault's sync membership, if it has one.
    package func syncEnrolment() throws -> SyncEnrolment? {
        try read { db, keys, _ in try VaultSyncTables(db: db, keys: keys).account()?.state.membership?.enrolment }
    }

    /// A copy of this in-memory vault as it is now (SQLite's online backup).
    package func copy() throws -> VaultCopy {
        let copy = try DatabaseQueue(configuration: VaultDatabase.configuration())
        try database.backup(to: copy)
        return VaultCopy(database: copy, keys: keys)
    }

    /// An in-memory vault opened from `copy`, with the keys it had then; the copy stays as it is.
    package static func opening(_ copy: VaultCopy) throws -> UnlockedVault {
        let database = try DatabaseQueue(configuration: VaultDatabase.configuration())
        try copy.database.backup(to: database)
        let header = try database.read { db in try VaultHeader.read(db, path: ":memory:") }
        return UnlockedVault(database: database, path: ":memory:", keys: copy.keys, header: header)
    }

    /// A field only a newer build of Tokens knows, set on entry `id` as that build would set it
    /// (stamped by this vault's sync clock at `now`, and pending).
    package func setNewerField(_ name: String, to value: String, on id: UUID, now: Date) throws {
        try write { db, keys in try SyncJournal.record(db, keys: keys, now: now) { try $0.setNewerField(name, to: value, on: id) } }
    }
}
