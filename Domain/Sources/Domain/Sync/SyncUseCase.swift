import Foundation

/// What one sync did.
public struct SyncReport: Equatable, Sendable {
    /// Remote changes taken in (new entries, edits, deletions).
    public var received = 0
    /// Local changes the server accepted.
    public var sent = 0
    /// Entries whose key was changed on two machines: the other version is kept as a copy.
    public var conflictCopies: [UUID] = []
    /// A cursor older than the server's tombstone horizon made this a full resync.
    public var resynced = false
    /// Accounts added here that another machine had added with the same key: now one entry each.
    public var mergedAdds = 0
    /// Entries the server served in a version older than one this machine had seen (a replay,
    /// or a server rolled back): refused, the local entry left as it was.
    public var refusedReplays: [UUID] = []
    /// The server had lost changes this machine had seen: its head was behind the cursor or its
    /// generation changed (restored from a backup). Everything was merged and sent again.
    public var serverBehind = false
    /// Entries the server lacked or held in an older version after a resync, sent again.
    public var resent = 0
    /// Replacements of the sync key the server had lost (restored from a backup), given back to
    /// it with the revocations this machine knew.
    public var keysGivenBack = 0
    /// Changes the server had acknowledged and then did not serve (read your writes): pending
    /// again, sent again.
    public var lostAcknowledged: [UUID] = []
    /// Entries received whose text another device wrote with characters the text rule forbids
    /// (terminal escapes, C1 controls, bidi overrides): stored here without them.
    public var cleanedText: [UUID] = []
    /// Entries the server holds that could not be opened (another key, damage or forgery): set
    /// aside so the rest syncs; where this machine holds the entry, its own version went back.
    public var unreadable: [UUID] = []
    /// How far the server's clock was from this machine's, from the pull's answers (the one of
    /// the shortest round trip); nil when no answer told its time.
    public var clockOffset: ClockOffset?

    public init() {}
}

/// Syncs the local entries with the server: pull what changed, merge it into what changed
/// here (SyncMerge), push what is pending, and merge again where someone pushed first.
public protocol SyncUseCase: Sendable {
    func execute() async throws -> SyncReport
}

/// SyncUseCase over the local store and the remote.
public struct DefaultSyncUseCase: SyncUseCase {
    /// Push rounds before giving up on entries that keep changing remotely.
    public static let pushRounds = 5
    /// Records per push (the server's limit).
    public static let pushSize = 100
    /// Pages one sync reads at most (a server's pages are at most a few hundred entries each):
    /// past it, the server is taken to page for ever.
    public static let maxPages = 10_000

    private let local: any SyncLocalStore
    private let remote: any SyncRemote

    public init(local: any SyncLocalStore, remote: any SyncRemote) {
        self.local = local
        self.remote = remote
    }

    public func execute() async throws -> SyncReport {
        if let report = try await quietRound() { return report }
        if let start = try await partialStart() {
            do {
                return try await round(from: start)
            } catch is SyncNeedsWholeRound {
                // Nothing was pushed or written: the whole round starts over.
            }
        }
        return try await round(from: try await local.snapshot())
    }

    /// Pulls, merges, pushes and commits, from `start` (whole, or a partial round's part).
    private func round(from start: SyncSnapshot) async throws -> SyncReport {
        var taken = start
        var (state, report) = try await pulledAndMerged(&taken)
        try await push(from: &state, taken: &taken, report: &report)
        try await local.commit(state, over: taken, report: report)
        return report
    }

    /// A partial round's start (`SyncPartialRound`): the entries that wait to be sent or
    /// confirmed, when the store keeps which they are and each of them may go alone.
    private func partialStart() async throws -> SyncSnapshot? {
        guard let start = try await local.partialSnapshot(), !start.isWhole,
            start.records.allSatisfy({ SyncPartialRound.holds($0.value, base: start.bases[$0.key]) })
        else { return nil }
        return start
    }

    /// A partial round's state and start made whole: every other entry read as stored, under
    /// what the round holds (`SyncSnapshot.overlaid`).
    private func makeWhole(_ state: inout SyncSnapshot, _ taken: inout SyncSnapshot) async throws {
        guard !state.isWhole || !taken.isWhole else { return }
        let whole = try await local.snapshot()
        state = state.overlaid(on: whole)
        taken = taken.overlaid(on: whole)
    }

    /// A round that reads one row and one page: when nothing here waits to be sent or confirmed
    /// (`SyncLocalStore.quietStart`) and the server has nothing after the cursor, in the same
    /// generation, with its head at the cursor (not behind it: a server restored from a backup
    /// goes the whole way). Anything else, or a cursor the server no longer serves, is left to
    /// the whole round (which reads that page again); nil then.
    private func quietRound() async throws -> SyncReport? {
        guard let start = try await local.quietStart() else { return nil }
        let page: RemotePage
        do {
            page = try await remote.pull(after: start.cursor)
        } catch let error {
            guard error == .cursorExpired else { throw error }
            return nil
        }
        // A generation the server names for the first time is one to record: the whole round.
        guard page.entries.isEmpty, page.unreadable.isEmpty, !page.hasMore, page.head == start.cursor,
            page.generation == nil || page.generation == start.generation
        else { return nil }
        var report = SyncReport()
        report.clockOffset = page.serverTime?.offset
        try await local.commitQuiet(report)
        return report
    }

    /// What `execute` would receive, send and merge, from a pull alone: nothing is pushed and
    /// nothing written here (the server's answers to a pull change nothing there either).
    public func preview() async throws -> SyncPreview {
        var taken = try await local.snapshot()
        let (state, report) = try await pulledAndMerged(&taken)
        return SyncPreview(from: taken, to: state, report: report)
    }

    /// `taken` with every remote change after its cursor merged in, ready to push (a partial
    /// `taken` gains the entries the pages name).
    private func pulledAndMerged(_ taken: inout SyncSnapshot) async throws -> (SyncSnapshot, SyncReport) {
        var state = taken
        var report = SyncReport()
        try await pull(into: &state, taken: &taken, report: &report)
        Self.giveCarriedCounters(in: &state)
        SyncTwins.reviveFolded(in: &state, unreadable: report.unreadable)
        SyncTwins.fold(in: &state, report: &report)
        return (state, report)
    }

    /// Every remote change after the cursor. From 0 again, as a resync, when the cursor expired
    /// (410) or the server fell behind it (restored from a backup): then whatever the server lacks
    /// or holds in an older version is merged and sent again. Omission is not deletion: an entry
    /// the server leaves out stays here (only a tombstone deletes).
    private func pull(into state: inout SyncSnapshot, taken: inout SyncSnapshot, report: inout SyncReport) async throws {
        var resyncing = false
        var seen: Set<UUID> = []
        // Pushes acknowledged after the last pull: each must come back at its sequence or later.
        var unconfirmed = state.bases.filter { $0.value.sequence > state.cursor }.mapValues(\.sequence)
        let acknowledged = unconfirmed.values.max() ?? 0
        var pages = 0
        while true {
            pages += 1
            if pages > Self.maxPages { throw SyncError.endlessPages }
            let page: RemotePage
            do {
                page = try await remote.pull(after: state.cursor)
            } catch let error {
                guard error == .cursorExpired, !resyncing else { throw error }
                guard state.isWhole else { throw SyncNeedsWholeRound() }
                report.resynced = true
                resyncing = true
                state.cursor = 0
                continue
            }
            if !resyncing, Self.fellBehind(page, state, acknowledged: acknowledged) {
                guard state.isWhole else { throw SyncNeedsWholeRound() }
                report.serverBehind = true
                state.generation = page.generation
                resyncing = true
                state.cursor = 0
                continue
            }
            if let generation = page.generation { state.generation = generation }
            report.clockOffset = ClockOffset.better(report.clockOffset, page.serverTime?.offset)
            if !state.isWhole { try await load(page, into: &state, taken: &taken) }
            // The server reads its head after the page, so an entry past the head is one it made
            // up: never taken (not even as the base of the next push), never a step of the cursor.
            for entry in page.entries where entry.sequence <= page.head {
                seen.insert(entry.record.id)
                if let acknowledged = unconfirmed[entry.record.id], entry.sequence >= acknowledged { unconfirmed[entry.record.id] = nil }
                if take(entry, into: &state, report: &report, resyncing: resyncing) { report.received += 1 }
                if SyncRecording.hasForbiddenText(entry.record), !report.cleanedText.contains(entry.record.id) {
                    report.cleanedText.append(entry.record.id)
                }
            }
            for unreadable in page.unreadable where unreadable.sequence <= page.head {
                seen.insert(unreadable.id)
                unconfirmed[unreadable.id] = nil
                setAside(unreadable, in: &state, report: &report)
            }
            // Never past the server's own head: a cursor taken to a made-up sequence would skip
            // the real changes below it.
            let next = max(state.cursor, min(page.lastSequence ?? page.head, page.head))
            // More to come, yet no step past the cursor: the next page would be this one again.
            if page.hasMore, next == state.cursor { throw SyncError.endlessPages }
            state.cursor = next
            if !page.hasMore { break }
        }
        // The pull walked past each acknowledged sequence (a head below one is a server behind,
        // resynced above): a push that did not come back was lost by the server.
        if !resyncing {
            for id in unconfirmed.keys.sorted(by: { $0.ordersBefore($1) }) where state.records[id] != nil {
                // The server holds what the push was made on (sent again over it), or, for an entry
                // pushed as new, nothing: the push goes as new.
                if let over = state.pushedOver[id] {
                    state.bases[id] = over
                } else if let base = state.bases[id] {
                    state.bases[id] = SyncRebase.rebased(base, onto: 0, serving: 0)
                }
                state.pending.insert(id)
                report.lostAcknowledged.append(id)
            }
            state.pushedOver = [:]
            return
        }
        for (id, base) in state.bases where !seen.contains(id) {
            // The server no longer has it: sent again as a new entry, above every version seen
            // (and over what a push it acknowledged and lost was made on).
            state.bases[id] = SyncRebase.rebased(state.pushedOver[id] ?? base, onto: 0, serving: 0)
            state.pending.insert(id)
            report.resent += 1
        }
        state.pushedOver = [:]
    }

    /// A partial round reads the entries `page` names that it does not hold yet; any that it may
    /// not take alone (`SyncPartialRound.takes`), or an entry the server cannot open, leaves the
    /// round to the whole one.
    private func load(_ page: RemotePage, into state: inout SyncSnapshot, taken: inout SyncSnapshot) async throws {
        let entries = page.entries.filter { $0.sequence <= page.head }
        guard page.unreadable.allSatisfy({ $0.sequence > page.head }), let held = state.part else { throw SyncNeedsWholeRound() }
        let missing = Set(entries.map(\.record.id)).subtracting(held)
        if !missing.isEmpty {
            let loaded = try await local.entries(missing)
            state.add(loaded)
            taken.add(loaded)
        }
        guard entries.allSatisfy({ SyncPartialRound.takes($0, in: state) }) else { throw SyncNeedsWholeRound() }
    }

    /// The server lost changes this machine saw: it names another generation than the one the
    /// cursor belongs to, or its head is behind the cursor or behind a sequence it acknowledged.
    private static func fellBehind(_ page: RemotePage, _ state: SyncSnapshot, acknowledged: Int64) -> Bool {
        if let known = state.generation, let current = page.generation, known != current { return true }
        return page.head < max(state.cursor, acknowledged)
    }

    /// Folds one remote entry into the local state; true when the local entry changed.
    @discardableResult
    private func take(_ entry: RemoteEntry, into state: inout SyncSnapshot, report: inout SyncReport, resyncing: Bool = false) -> Bool {
        let id = entry.record.id
        if let over = state.pushedOver[id], let acknowledged = state.bases[id], entry.record != acknowledged.record,
            entry.sequence >= acknowledged.sequence,
            entry.version == acknowledged.version
                || entry.version > acknowledged.version && !SyncRebase.holds(entry.record, acknowledged.record)
        {
            // Another record at the version of a push the server acknowledged, or a later one
            // without what the push changed: the server lost the push. It merges as a change of
            // this machine's against what it was made on. (An earlier version is a replay, below:
            // what the push was made on may be older than what this machine saw since.)
            state.bases[id] = over
            state.pushedOver[id] = nil
            state.pending.insert(id)
        }
        if let base = state.bases[id] {
            // A resync after the server lost versions: what it serves may fork from what this
            // machine saw (another machine re-sent an older copy under a version number already
            // used), so every entry merges against the per-field ancestor, whatever its version.
            if resyncing { return rebase(base, onto: entry, in: &state, report: &report) }
            if base.sequence >= entry.sequence { return false }
            // Versions only grow along an entry's sequences (each write is based on the one before
            // it), so an older version, or another record at the same version, means the server
            // lost or replays versions this machine saw: it keeps its own, merged with anything
            // new, and sends it again above both (the server heals instead of the machines parting).
            if entry.version < base.version || (entry.version == base.version && entry.record != base.record) {
                if entry.version < base.version, !report.refusedReplays.contains(id) { report.refusedReplays.append(id) }
                return rebase(base, onto: entry, in: &state, report: &report)
            }
            // A later version with a field older than the one seen here, or fewer HOTP codes used
            // of the same key, was written by a machine that never had this version (the server
            // replayed an older one to it meanwhile, or lost this one): a fork, merged against the
            // per-field ancestor, not taken over what it never saw.
            if SyncRebase.lacksFields(of: base.record, entry.record) || SyncRebase.lowersCounter(of: base.record, entry.record) {
                return rebase(base, onto: entry, in: &state, report: &report)
            }
        }
        var before = state.records[id]
        var base = state.bases[id]?.record
        if let seen = base, before != nil, entry.record != seen,
            [.forked, .seenReplacedRemote].contains(SyncRebase.keyLineage(seen: seen, remote: entry.record))
        {
            // A later version with a key the one seen here replaced, or one beside it: written
            // over an older copy (garbage healed with it, a write the server lost). It merges
            // like a fork, against the per-field ancestor.
            base = SyncRebase.base(seen: seen, remote: entry.record)
            state.pending.insert(id)
        }
        state.bases[id] = entry
        if before == nil, let twin = Self.unsentTwin(of: entry.record, in: state) {
            // The same key added here too, not sent yet: one entry, under the id and key stamp the
            // server has (a copy of this machine's entry sent again later, from a vault restored
            // to before this, is then a twin from another machine's key, and folds too).
            state.records[twin.id] = nil
            state.pending.remove(twin.id)
            state.pending.insert(id)
            before = SyncRecord(
                id: id, key: entry.record.key, counter: twin.counter, issuer: twin.issuer, name: twin.name, note: twin.note,
                isFavorite: twin.isFavorite, groups: twin.groups, position: twin.position, isDeleted: twin.isDeleted,
                keyHistory: entry.record.keyHistory, unknown: twin.unknown)
            report.mergedAdds += 1
        }
        guard let mine = before, state.pending.contains(id) else {
            state.records[id] = entry.record
            return before != entry.record
        }
        let merge = SyncMerge.merge(base: base, local: mine, remote: entry.record)
        state.records[id] = merge.merged
        if merge.merged == entry.record { state.pending.remove(id) }
        Self.carryCounters(of: mine, and: entry.record, past: base, to: merge.merged, in: &state)
        if let copy = merge.conflictCopy, state.records[copy.id] == nil {
            state.records[copy.id] = copy
            state.pending.insert(copy.id)
            report.conflictCopies.append(copy.id)
        }
        return merge.merged != mine
    }

    /// The server holds another version of an entry than the one seen here (it lost newer ones,
    /// or serves a fork): merged with it field by field against their per-field ancestor, and
    /// sent again above both versions unless the server already holds the result.
    @discardableResult
    private func rebase(_ seen: RemoteEntry, onto entry: RemoteEntry, in state: inout SyncSnapshot, report: inout SyncReport) -> Bool {
        let id = entry.record.id
        let mine = state.records[id] ?? seen.record
        let base = SyncRebase.base(seen: seen.record, remote: entry.record)
        let merge = SyncMerge.merge(base: base, local: mine, remote: entry.record)
        state.records[id] = merge.merged
        Self.carryCounters(of: mine, and: entry.record, past: base, to: merge.merged, in: &state)
        if merge.merged == entry.record {
            state.bases[id] = entry
            state.pending.remove(id)
        } else {
            state.bases[id] = SyncRebase.rebased(seen, onto: entry.sequence, serving: entry.version)
            state.pending.insert(id)
            report.resent += 1
        }
        if let copy = merge.conflictCopy, state.records[copy.id] == nil {
            state.records[copy.id] = copy
            state.pending.insert(copy.id)
            report.conflictCopies.append(copy.id)
        }
        return merge.merged != mine
    }

    /// An entry the server holds that cannot be opened: one bad entry stops nothing. Counted; and
    /// where this machine holds the entry, its version is sent again over what the server holds
    /// (based on that sequence), so the server heals. It goes under the version after the last
    /// one this machine saw: a machine that saw a newer one meets it as a fork (an older or equal
    /// version under a new sequence) and merges it field by field instead of taking a stale copy.
    private func setAside(_ entry: UnreadableEntry, in state: inout SyncSnapshot, report: inout SyncReport) {
        if !report.unreadable.contains(entry.id) { report.unreadable.append(entry.id) }
        guard let record = state.records[entry.id] else { return }
        let seen = state.bases[entry.id] ?? RemoteEntry(sequence: 0, record: record, version: 0)
        state.bases[entry.id] = RemoteEntry(sequence: entry.sequence, record: seen.record, version: seen.version)
        state.pending.insert(entry.id)
    }

    /// Codes used of a key the merge replaced, on either side (`mine`'s or `theirs`'s counter
    /// past the base's): kept, to be given to whichever entry holds that key once the pull or
    /// push round is done (the conflict copy, made here or by the machine that merged first). The
    /// other side's counts too: a machine that used codes of a key, then sent them to a server
    /// that had lost the copy holding that key, leaves them to the machine that holds the copy.
    /// So does a side that replaced the base's key after using codes of it: the counter moved
    /// with the entry to its new key, and bounds the codes used of the old one, which a concurrent
    /// change elsewhere may have kept as a copy (sent before those codes were).
    private static func carryCounters(
        of mine: SyncRecord, and theirs: SyncRecord, past base: SyncRecord?, to merged: SyncRecord, in state: inout SyncSnapshot
    ) {
        for side in [mine, theirs] where side.counter > (base?.counter ?? 0) {
            var keys = [side.key.value]
            if let base, base.key.value != side.key.value { keys.append(base.key.value) }
            for key in keys where key.kind == .hotp && key != merged.key.value {
                state.carriedCounters[key] = max(state.carriedCounters[key] ?? 0, side.counter)
            }
        }
    }

    /// Codes used here of a key another machine replaced: the counter goes with the key, to the
    /// live entry that still holds it (the conflict copy a concurrent key change left), never down.
    private static func giveCarriedCounters(in state: inout SyncSnapshot) {
        for (key, counter) in state.carriedCounters {
            for (id, record) in state.records where !record.isDeleted.value && record.key.value == key && record.counter < counter {
                state.records[id]?.counter = counter
                state.pending.insert(id)
            }
        }
        state.carriedCounters = [:]
    }

    /// A live entry added here and never sent, with the key of `record` (a new remote entry).
    private static func unsentTwin(of record: SyncRecord, in state: SyncSnapshot) -> SyncRecord? {
        guard !record.isDeleted.value else { return nil }
        return state.pending
            .compactMap { state.bases[$0] == nil ? state.records[$0] : nil }
            .filter { !$0.isDeleted.value && $0.key.value == record.key.value }
            .min { $0.id.ordersBefore($1.id) }
    }

    /// Pushes what is pending; a conflict is merged and pushed again, a few rounds at most.
    private func push(from state: inout SyncSnapshot, taken: inout SyncSnapshot, report: inout SyncReport) async throws {
        for _ in 0..<Self.pushRounds {
            let ids = state.pending.sorted { $0.ordersBefore($1) }
            if ids.isEmpty { return }
            for batch in stride(from: 0, to: ids.count, by: Self.pushSize).map({ Array(ids[$0..<min($0 + Self.pushSize, ids.count)]) }) {
                let changes = batch.compactMap { id in
                    state.records[id].map {
                        RemoteChange(record: $0, basedOn: state.bases[id]?.sequence ?? 0, version: (state.bases[id]?.version ?? 0) + 1)
                    }
                }
                let results = try await remote.push(changes)
                // A conflict may bring any version of an entry: what follows is the whole round's.
                if !state.isWhole, results.contains(where: { if case .applied = $0 { false } else { true } }) {
                    try await makeWhole(&state, &taken)
                }
                for (change, result) in zip(changes, results) {
                    switch result {
                    case .applied(let sequence):
                        if state.pushedOver[change.record.id] == nil, let over = state.bases[change.record.id] {
                            state.pushedOver[change.record.id] = over
                        }
                        state.bases[change.record.id] = RemoteEntry(sequence: sequence, record: change.record, version: change.version)
                        state.pending.remove(change.record.id)
                        report.sent += 1
                    case .conflict(let current):
                        if let base = state.bases[change.record.id], base.sequence >= current.sequence {
                            // What the server holds is not after the base this push was made on:
                            // that base's sequence was one the server made up or lost (a replay
                            // at a sequence of its own, a rollback). Merged onto what it holds
                            // now, the next round is based on it.
                            rebase(base, onto: current, in: &state, report: &report)
                        } else {
                            take(current, into: &state, report: &report)
                        }
                    case .conflictUnreadable(let sequence):
                        setAside(UnreadableEntry(id: change.record.id, sequence: sequence), in: &state, report: &report)
                    }
                }
            }
            Self.giveCarriedCounters(in: &state)
        }
        if !state.pending.isEmpty { throw SyncError.stillConflicting }
    }
}
