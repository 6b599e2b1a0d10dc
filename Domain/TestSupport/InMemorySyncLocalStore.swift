import Domain
import Foundation

/// One machine's side of sync in memory: its entries, their bases, what is pending, the cursor.
/// `change` is a local edit (marked pending), as the vault records it.
public actor InMemorySyncLocalStore: SyncLocalStore {
    public private(set) var state = SyncSnapshot()
    /// Whether the last commit left nothing to send or confirm and nothing changed since.
    private var allSent = false
    /// Rounds recorded as quiet (`commitQuiet`).
    public private(set) var quietRounds = 0

    public init() {}

    /// A local change to an entry (nil: the entry is new or was removed), marked pending.
    public func change(_ id: UUID, _ edit: @Sendable (inout SyncRecord?) -> Void) {
        var record = state.records[id]
        edit(&record)
        state.records[id] = record
        state.pending.insert(id)
        allSent = false
    }

    /// The vault restored from an older copy: its entries, bases, pending set and cursor as they were.
    public func restore(_ copy: SyncSnapshot) {
        state = copy
        allSent = false
    }

    public func quietStart() async throws -> SyncQuietStart? {
        allSent ? SyncQuietStart(cursor: state.cursor, generation: state.generation) : nil
    }

    public func commitQuiet(_ report: SyncReport) async throws { quietRounds += 1 }

    public func snapshot() async throws -> SyncSnapshot { state }

    public func pendingCount() async throws -> Int { state.pending.count }

    public func commit(_ snapshot: SyncSnapshot, over taken: SyncSnapshot, report: SyncReport) async throws {
        var next = snapshot
        for (id, record) in state.records where taken.records[id] != record {
            next.records[id] = record
            next.pending.insert(id)
        }
        state = next
        allSent = Self.allSent(next)
    }

    /// Every entry settled (`SyncQuietStart.isSettled`).
    static func allSent(_ snapshot: SyncSnapshot) -> Bool {
        Set(snapshot.records.keys).union(snapshot.bases.keys).union(snapshot.pending).union(snapshot.pushedOver.keys).allSatisfy { id in
            SyncQuietStart.isSettled(
                pending: snapshot.pending.contains(id), pushedOver: snapshot.pushedOver[id], base: snapshot.bases[id],
                cursor: snapshot.cursor)
        }
    }
}
