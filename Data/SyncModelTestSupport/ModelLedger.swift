import Domain
import Foundation

/// What the users of a simulated history did, as the journal stamped it, and the oracle that
/// judges the machines once they have synced to quiescence:
/// - every field of an entry equals the latest write to it (hybrid time) that survived, unless
///   the entry was deleted by machines that had each seen every surviving edit; an edit that no
///   deleting machine had seen, and that no later write of its field replaced, beats the delete
///   (in between, records cannot tell: not judged); codes used of a key the deleting machine had
///   replaced, or up to a counter it had reached, are no such edit;
/// - an HOTP counter is never below the highest counter a machine used;
/// - a secret ever written is on a live entry unless someone who held it deleted or replaced it
///   (a secret changed on two sides keeps both);
/// - no two live entries hold the same key.
/// A write survives while a machine or the server still holds it (or a later one of the same
/// field): a vault restored from an old copy legitimately loses what it never sent, and a
/// server restored from a backup what no machine kept. Groups merge as sets, so they are left
/// to the convergence check.
struct ModelLedger {
    enum Field: CaseIterable, CustomStringConvertible {
        case key, issuer, name, note, favorite, groups, position, deleted
        /// The field only a newer build knows (ModelCheck.newerField), kept whole by the others.
        case newer

        var description: String {
            switch self {
            case .key: "key"
            case .issuer: "issuer"
            case .name: "name"
            case .note: "note"
            case .favorite: "favourite"
            case .groups: "groups"
            case .position: "position"
            case .deleted: "deletion"
            case .newer: "newer build's field"
            }
        }

        /// The stamp of a field no machine has written.
        static let never = HybridTimestamp(milliseconds: 0, device: UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)))

        func stamp(_ record: SyncRecord) -> HybridTimestamp { read(record).stamp }

        func value(_ record: SyncRecord) -> AnyHashable { read(record).value }

        private func read(_ record: SyncRecord) -> (stamp: HybridTimestamp, value: AnyHashable) {
            switch self {
            case .key: (record.key.changedAt, record.key.value)
            case .issuer: (record.issuer.changedAt, record.issuer.value)
            case .name: (record.name.changedAt, record.name.value)
            case .note: (record.note.changedAt, record.note.value)
            case .favorite: (record.isFavorite.changedAt, record.isFavorite.value)
            case .groups: (record.groups.changedAt, record.groups.value)
            case .position: (record.position.changedAt, record.position.value)
            case .deleted: (record.isDeleted.changedAt, record.isDeleted.value)
            case .newer:
                record.unknown.fields[ModelCheck.newerField].map { ($0.changedAt ?? Self.never, $0.json) }
                    ?? (Self.never, "absent")
            }
        }
    }

    struct Write {
        let serial: Int
        let entry: UUID
        let field: Field
        let stamp: HybridTimestamp
        let value: AnyHashable
        /// The entry as the writing machine had it just before.
        let view: SyncRecord?
        let machine: Int
        /// The writes (and HOTP uses) the writing machine had seen before this one.
        let knew: Set<Int>
    }

    /// An HOTP code used: the secret and the counter after the use.
    struct Use {
        let serial: Int
        let entry: UUID
        let secret: Secret
        let counter: UInt64
        let knew: Set<Int>
    }

    private(set) var writes: [Write] = []
    private(set) var uses: [Use] = []
    private var serials = 0
    /// What each machine has seen: the serials of writes and uses it has held exactly.
    private var seen: [Int: Set<Int>] = [:]
    /// Writes the server lost while other writes that came after them stayed (their entry
    /// replaced by garbage, or by its first version again): a machine that holds a later write
    /// has not seen these through it, since the server no longer serves them.
    private var lostOnServer: Set<Int> = []
    /// Writes and uses forgotten by a restore or a poisoned entry while the server's backup may
    /// still hold them: a server restored from that backup serves them again.
    private var parked: [(serial: Int, parkedAt: Int, write: Write?, use: Use?)] = []
    /// Counts the ledger's events (a forgetting, a backup), to tell which came first.
    private var events = 0
    /// The last backup of the server: the writes and uses made before it, and when it was taken.
    private var backup: (serials: Int, at: Int)?
    /// Entries the users added (conflict copies are not among them).
    private(set) var added: Set<UUID> = []
    /// Entries added on two machines at once: one of each pair is folded away.
    private(set) var twins: Set<UUID> = []

    mutating func add(_ id: UUID, twin: Bool = false) {
        added.insert(id)
        if twin { twins.insert(id) }
    }

    /// The writes a local change made: every field whose stamp moved, and a counter that grew.
    mutating func record(before: SyncRecord?, after: SyncRecord?, machine: Int) {
        guard let after else { return }
        let knew = seen[machine] ?? []
        for field in Field.allCases where before.map({ field.stamp($0) != field.stamp(after) }) ?? true {
            serials += 1
            writes.append(
                Write(
                    serial: serials, entry: after.id, field: field, stamp: field.stamp(after), value: field.value(after), view: before,
                    machine: machine, knew: knew))
        }
        if case .hotp = after.key.value.kind, after.counter > (before?.counter ?? 0) {
            serials += 1
            uses.append(Use(serial: serials, entry: after.id, secret: after.key.value.secret, counter: after.counter, knew: knew))
        }
    }

    /// What `machine` holds now (its journal) counts as seen: a write whose very stamp it holds,
    /// and everything its writer had seen (knowledge is causal), and a use whose counter or a
    /// later one of the same secret. A vault restored from a copy `forgets` what the copy never
    /// held.
    mutating func observe(machine: Int, records: [UUID: SyncRecord], forgetting: Bool = false) {
        var known = forgetting ? [] : seen[machine] ?? []
        for write in writes where records[write.entry].map({ write.field.stamp($0) == write.stamp }) ?? false {
            known.insert(write.serial)
            known.formUnion(write.knew.subtracting(lostOnServer))
        }
        // A counter at or past the use's, of the same secret, holds what the use told; not what
        // its machine had seen (another machine may have reached that counter on its own).
        for use in uses where records[use.entry].map({ $0.key.value.secret == use.secret && $0.counter >= use.counter }) ?? false {
            known.insert(use.serial)
        }
        seen[machine] = known
    }

    /// The server no longer serves the writes made to `entry` so far (garbage in its place, or
    /// its first version served again): knowledge of them no longer travels with later writes.
    /// A machine that holds one of them exactly still counts as having seen it.
    mutating func loseOnServer(_ entry: UUID) {
        lostOnServer.formUnion((writes + parked.compactMap(\.write)).filter { $0.entry == entry }.map(\.serial))
    }

    /// Forgets what no machine and not the server holds any more (after a restore), parking it
    /// for a server restored from its backup later.
    /// A later write of a field holds an earlier one, except for keys: a key changed on two
    /// machines keeps both, so a key is held only where that very key is (or one that replaced it
    /// knowing it: the stamp in its key history), in any entry (a conflict copy too).
    mutating func keepHeld(by holders: [[UUID: SyncRecord]]) {
        let before = (writes: writes, uses: uses)
        defer {
            let kept = Set(writes.map(\.serial) + uses.map(\.serial))
            events += 1
            parked += before.writes.filter { !kept.contains($0.serial) }.map { ($0.serial, events, $0, nil) }
            parked += before.uses.filter { !kept.contains($0.serial) }.map { ($0.serial, events, nil, $0) }
        }
        writes.removeAll { write in
            guard write.field != .key else {
                return !holders.contains { holder in
                    holder.values.contains {
                        $0.key.changedAt == write.stamp && AnyHashable($0.key.value) == write.value || $0.keyHistory.contains(write.stamp)
                    }
                }
            }
            return !holders.contains { holder in holder[write.entry].map { write.field.stamp($0) >= write.stamp } ?? false }
        }
        uses.removeAll { use in
            !holders.contains { holder in holder.values.contains { $0.key.value.secret == use.secret && $0.counter >= use.counter } }
        }
    }

    /// The server backed up: what has been written so far may come back with it.
    mutating func backedUp() {
        events += 1
        backup = (serials, events)
    }

    /// The server restored from its backup: what was forgotten after the backup was taken, and
    /// written before it, comes back, for `keepHeld` to judge again against what the machines and
    /// the restored server hold. What was forgotten before it, or written after it, is gone.
    mutating func recallParked() {
        guard let backup else { return }
        let recalled = parked.filter { $0.serial <= backup.serials && $0.parkedAt > backup.at }
        writes = (writes + recalled.compactMap(\.write)).sorted { $0.serial < $1.serial }
        uses = (uses + recalled.compactMap(\.use)).sorted { $0.serial < $1.serial }
        parked.removeAll { $0.serial > backup.serials || $0.parkedAt > backup.at }
    }

    /// What is wrong with `final` (the records every machine ended with), in words.
    func violations(in final: [UUID: SyncRecord]) -> [String] {
        var problems: [String] = []
        let byEntry = Dictionary(grouping: writes, by: \.entry)
        for id in added.subtracting(twins).sorted(by: { $0.uuidString < $1.uuidString }) {
            let entryWrites = byEntry[id] ?? []
            guard !entryWrites.isEmpty else { continue }
            let deletes = entryWrites.filter { $0.field == .deleted && $0.value == AnyHashable(true) }
            let edits = entryWrites.filter { $0.field != .deleted }
            // Alive when an edit survives that no deleting machine had seen; gone when every
            // deleting machine had seen every surviving edit (and HOTP use). Between the two (one
            // deleter saw an edit, another did not) records cannot tell, and either is kept.
            let uses = uses.filter { $0.entry == id }
            // An edit that lost its field to a later write is gone whatever happens to the entry.
            let winning = edits.filter { edit in !edits.contains { $0.field == edit.field && $0.stamp > edit.stamp } }
            // Codes used of a key the deleting machine's entry no longer held (it had replaced it),
            // or only up to a counter it had reached itself, tell that machine nothing new.
            func knows(_ delete: Write, _ use: Use) -> Bool {
                delete.knew.contains(use.serial)
                    || delete.view.map { $0.key.value.secret != use.secret || $0.counter >= use.counter } ?? false
            }
            let unseen =
                winning.contains { edit in !deletes.contains { $0.knew.contains(edit.serial) } }
                || uses.contains { use in !deletes.contains { knows($0, use) } }
            let seenByAll =
                !deletes.isEmpty
                && deletes.allSatisfy { delete in
                    edits.allSatisfy { delete.knew.contains($0.serial) } && uses.allSatisfy { knows(delete, $0) }
                }
            if !unseen && !seenByAll { continue }
            let deleted = seenByAll
            guard let record = final[id] else {
                if !deleted { problems.append("\(id.short): gone entirely, though an edit came after every delete") }
                continue
            }
            if deleted {
                if !record.isDeleted.value { problems.append("\(id.short): deleted after every edit, yet alive") }
                continue
            }
            if record.isDeleted.value {
                problems.append("\(id.short): deleted, though an edit the deleting machine had not seen came after")
                continue
            }
            // Groups merge as sets (what either side added, less what either removed): not one write.
            for field in Field.allCases where field != .deleted && field != .groups {
                let written = edits.filter { $0.field == field }
                guard let latest = written.max(by: { $0.stamp < $1.stamp }) else { continue }
                // Two writes under one reading are both the latest: a machine whose vault went back
                // to an older copy while its clock was behind the last change it had stamped
                // stamps its next change as it stamped the one the copy lacks.
                if !written.contains(where: { $0.stamp == latest.stamp && $0.value == field.value(record) }) {
                    problems.append(
                        "\(id.short) \(field): \(field.value(record)) instead of \(latest.value), written by M\(latest.machine)")
                }
            }
        }
        let live = final.values.filter { !$0.isDeleted.value }
        for use in uses {
            for record in live where record.key.value.secret == use.secret && record.counter < use.counter {
                problems.append("\(record.id.short): HOTP counter \(record.counter), below \(use.counter) used")
            }
        }
        let secrets = Set(live.map(\.key.value.secret))
        let dropped = writes.filter { write in
            write.field == .deleted && write.value == AnyHashable(true) || write.field == .key
        }.compactMap(\.view?.key.value.secret)
        for write in writes where write.field == .key {
            guard let key = write.value.base as? KeyMaterial, !secrets.contains(key.secret), !dropped.contains(key.secret) else { continue }
            problems.append("\(write.entry.short): a secret written by M\(write.machine) is on no live entry")
        }
        for (key, holders) in Dictionary(grouping: live, by: \.key.value) where holders.count > 1 {
            problems.append(
                "\(holders.count) live entries hold one key (\(holders.map(\.id.short).sorted().joined(separator: ", "))) of kind \(key.kind)"
            )
        }
        return problems
    }
}

extension UUID {
    /// The last 6 hex digits, enough to tell the model's entries apart.
    var short: String { String(uuidString.suffix(6)) }
}
