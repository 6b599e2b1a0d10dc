import Foundation

/// An entry as the server holds it, decrypted: its record, the sequence that orders it, and the
/// version its writer sealed inside it (one more than the version it was based on). The server
/// cannot change the version without breaking the seal, so a client that has seen version n of
/// an entry refuses an older one the server serves again (a replay).
public struct RemoteEntry: Hashable, Sendable {
    public let sequence: Int64
    public let record: SyncRecord
    public let version: UInt64

    public init(sequence: Int64, record: SyncRecord, version: UInt64 = 1) {
        self.sequence = sequence
        self.record = record
        self.version = version
    }
}

/// An entry the server holds that this machine cannot open (another key, a damaged or forged
/// ciphertext): where it is, so that sync can set it aside and go on.
public struct UnreadableEntry: Hashable, Sendable {
    public let id: UUID
    public let sequence: Int64

    public init(id: UUID, sequence: Int64) {
        self.id = id
        self.sequence = sequence
    }
}

/// A page of remote changes after a cursor.
public struct RemotePage: Hashable, Sendable {
    public let entries: [RemoteEntry]
    /// The page's entries that could not be opened (in sequence order with the others).
    public let unreadable: [UnreadableEntry]
    /// The account's latest sequence when the page was read.
    public let head: Int64
    public let hasMore: Bool
    /// The server's generation, when it tells one: it changes when the server's data is restored
    /// from a backup (its sequences then go back). nil: the server does not say.
    public let generation: String?
    /// The server's time as its answer told it (nil: it did not): how this machine's clock is
    /// checked. It takes no part in the merge.
    public let serverTime: ServerTimeSample?

    public init(
        entries: [RemoteEntry], unreadable: [UnreadableEntry] = [], head: Int64, hasMore: Bool, generation: String? = nil,
        serverTime: ServerTimeSample? = nil
    ) {
        self.entries = entries
        self.unreadable = unreadable
        self.head = head
        self.hasMore = hasMore
        self.generation = generation
        self.serverTime = serverTime
    }

    /// The last sequence the page covers, readable or not.
    public var lastSequence: Int64? { [entries.last?.sequence, unreadable.last?.sequence].compactMap { $0 }.max() }
}

/// The answer to one pushed record.
public enum RemotePushResult: Hashable, Sendable {
    case applied(sequence: Int64)
    /// Someone changed the entry first: here it is, to merge with and push again.
    case conflict(current: RemoteEntry)
    /// The entry moved on to something this machine cannot open, at this sequence.
    case conflictUnreadable(sequence: Int64)
}

/// A record to push, with the sequence of the entry it was based on (0: a new entry) and its
/// version (the base's plus one; 1 for a new entry), sealed with it.
public struct RemoteChange: Hashable, Sendable {
    public let record: SyncRecord
    public let basedOn: Int64
    public let version: UInt64

    public init(record: SyncRecord, basedOn: Int64, version: UInt64 = 1) {
        self.record = record
        self.basedOn = basedOn
        self.version = version
    }
}

/// The sync server, as the client's rules see it (Data: the generated HTTP client, with every
/// record encrypted before it leaves and decrypted when it comes back). Throws SyncError only.
public protocol SyncRemote: Sendable {
    /// Changes after `cursor`, in sequence order (a page at most).
    func pull(after cursor: Int64) async throws(SyncError) -> RemotePage
    /// Up to 100 records, each stored only if its entry is still where it was based on; one
    /// result per change, in order.
    func push(_ changes: [RemoteChange]) async throws(SyncError) -> [RemotePushResult]
}
