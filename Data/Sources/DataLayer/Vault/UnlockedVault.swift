import Crypto
import Domain
import Foundation
import GRDB
import Synchronization

/// An open, unlocked vault: the database and the keys, held only here.
///
/// Every read and write runs in one SQLite transaction that first checks the header's MAC and
/// the entries against its manifest (the manifest is skipped when no other connection has
/// committed since this one last checked: SQLite's data_version is unchanged); every write also
/// checks the schema, and ends by renewing the manifest and the revision under a new MAC.
///
/// A vault opened by the read path (`VaultReadPath`) reads its entries through that path's
/// connection and opens GRDB's only when something else is asked (a write, the sync state);
/// any other vault does everything through GRDB's. GRDB's connection takes the read path's check
/// of the rows while no connection has committed since it (the read path's data_version is
/// unchanged), so an open followed by a sync or a write hashes the rows once, not twice.
public final class UnlockedVault: Sendable {
    public let path: String
    let vaultID: Data
    /// The keys, and the ids of the slots they were unlocked with; replaced by a rotation.
    private let session: Mutex<Session>
    /// GRDB's connection: given, or opened at first use; none once closed.
    private let queue: Mutex<QueueState>
    /// The read path's connection, and what it last checked; nil for a vault opened by GRDB.
    private let reader: Mutex<ReadPathState?>
    /// The sync entry rows opened under the current keys.
    let syncRows = SyncRowCache()
    /// How often the entries were checked against the manifest (each check hashes every row),
    /// for tests.
    private let manifestCheckCount = Atomic<Int>(0)
    /// Set while GRDB's connection, opened after the read path's, has not had SQLite check every
    /// page (`VaultDatabase.checkPages`): done before the first read of every entry or write of
    /// the whole way, not for the reads and writes of a few rows, each checked against the index.
    private let pagesUnchecked = Atomic<Bool>(false)
    /// Set once the file is known to be out of WAL mode (`leaveWAL`): no write asks again.
    private let journalSettled = Atomic<Bool>(false)

    enum QueueState: Sendable {
        case unopened
        case open(DatabaseQueue)
        case closed
    }

    struct Session: Sendable {
        var keys: VaultKeys
        var slotIDs: Set<Data>
        /// SQLite's data_version when GRDB's connection last found the file as its header says,
        /// or left it so by a write of its own (which does not change data_version).
        var checkedDataVersion: Int64?
    }

    /// The read path's connection, the data_version at which it last found the file as its
    /// header says, and the entries it read then.
    struct ReadPathState {
        let connection: SQLiteReadConnection
        var checked: (dataVersion: Int64, records: [EntryRecord])?
    }

    /// A vault opened by GRDB.
    init(database: DatabaseQueue, path: String, keys: VaultKeys, header: VaultHeader) {
        self.path = path
        self.vaultID = header.vaultID
        self.session = Mutex(Session(keys: keys, slotIDs: Set(header.slots.map(\.id)), checkedDataVersion: nil))
        self.queue = Mutex(.open(database))
        self.reader = Mutex(nil)
    }

    /// A vault opened by the read path, which found the header authentic and, when it read
    /// them (`records`), every row as the header says at `dataVersion`.
    init(
        reading connection: consuming sending SQLiteReadConnection, path: String, keys: VaultKeys, header: VaultHeader, dataVersion: Int64,
        records: [EntryRecord]?
    ) {
        self.path = path
        self.vaultID = header.vaultID
        self.session = Mutex(Session(keys: keys, slotIDs: Set(header.slots.map(\.id)), checkedDataVersion: nil))
        self.queue = Mutex(.unopened)
        self.reader = Mutex(ReadPathState(connection: connection, checked: records.map { (dataVersion, $0) }))
    }

    var keys: VaultKeys { session.withLock { $0.keys } }

    /// How often this vault checked the entries against the manifest (the open's check, made
    /// before the vault, is not counted), for tests.
    var manifestChecks: Int { manifestCheckCount.load(ordering: .relaxed) }

    /// Whether the entries are read through the read path's connection (for tests).
    var readsThroughReadPath: Bool { reader.withLock { $0 != nil } }

    /// Whether GRDB's connection is open (for tests).
    var hasOpenedGRDB: Bool {
        queue.withLock { queue in
            if case .open = queue { return true }
            return false
        }
    }

    /// GRDB's connection, opened now if it was not yet.
    var database: DatabaseQueue {
        get throws {
            try queue.withLock { queue in
                switch queue {
                case .open(let database): return database
                case .closed: throw VaultError.locked
                case .unopened:
                    // The read path's connection is open (and checked the file's first bytes).
                    let database = try VaultDatabase.open(path: path, checkingFirstBytes: false, checkingPages: false)
                    pagesUnchecked.store(true, ordering: .relaxed)
                    queue = .open(database)
                    return database
                }
            }
        }
    }

    /// How many key slots the vault has.
    public func slotCount() throws -> Int {
        try VaultDatabase.guarding(path: path) {
            try database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM key_slot") ?? 0 }
        }
    }

    /// Runs `body` with the entries once the header and manifest check out: on the read path's
    /// connection where there is one (in one read transaction), else as `read`.
    func readEntries<T: Sendable>(_ body: (VaultKeys, [EntryRecord]) throws -> T) throws -> T {
        let keys = self.keys
        let found = try readPathEntries(keys: keys) { connection, header in
            let records = try EntryTable.all(connection)
            try verifyManifest(records, in: connection, against: header, keys: keys)
            return (records, records)
        }
        switch found {
        case nil: return try read { _, keys, records in try body(keys, records) }
        case .checkedBefore(let records), .checkedNow(let records): return try body(keys, records)
        }
    }

    /// `transform` of every entry, in the user's order, once the header and manifest check out.
    /// On the read path's connection, the entries are transformed and hashed on the other cores
    /// while the rest are read and the index is read, so that no core waits on the reading
    /// (`ReadAhead`); what `transform` made is given out only once every row checks out, and a
    /// row that does not fails as `readEntries` fails. Elsewhere it is `readEntries`.
    func mapEntries<T: Sendable>(_ transform: @Sendable (EntryRecord, VaultKeys) throws -> T) throws -> [T] {
        let keys = self.keys
        let found = try readPathEntries(keys: keys) { connection, header in
            let (checked, mapped) = try ReadAhead.map(
                first: VaultRowDigest.entry, then: { try transform($0, keys) },
                reading: { hand in
                    let records = try EntryTable.all(connection, batch: 256, hand)
                    return (records, try VaultManifest.stored(in: connection, against: header, keys: keys))
                },
                checking: { read, digests in
                    let order = EntryTable.userOrder(of: read.0)
                    let records = EntryTable.arranged(read.0, order)
                    try verifyManifest(
                        records, digests: EntryTable.arranged(digests, order), stored: read.1, in: connection, against: header, keys: keys)
                    return (records, order)
                })
            return (checked.0, (mapped, checked.1))
        }
        switch found {
        case nil: return try readEntries { keys, records in try records.mappedOnAllCores { try transform($0, keys) } }
        case .checkedBefore(let records): return try records.mappedOnAllCores { try transform($0, keys) }
        case .checkedNow(let (mapped, order)): return EntryTable.arranged(try mapped.get(), order)
        }
    }

    /// What a read of every entry found on the read path's connection.
    private enum ReadPathEntries<Made: Sendable>: Sendable {
        /// The entries, checked at this data_version by an earlier read.
        case checkedBefore([EntryRecord])
        /// What the read made of the entries it checked now.
        case checkedNow(Made)
    }

    /// In one read transaction of the read path's connection: the entries an earlier read
    /// checked while no connection has committed since, or else `body` with the header these
    /// keys authenticate (`body` checks every row and returns the rows, kept for the next read,
    /// and what it made of them); nil for a vault without a read path.
    private func readPathEntries<Made: Sendable>(
        keys: VaultKeys, _ body: @Sendable (SQLiteReadConnection, VaultHeader) throws -> (records: [EntryRecord], made: Made)
    ) throws -> ReadPathEntries<Made>? {
        try reader.withLock { state -> ReadPathEntries<Made>? in
            guard let current = state else { return nil }
            // Lent to `body` within this lock alone (region analysis cannot see that `body`
            // keeps no reference to it).
            nonisolated(unsafe) let connection = current.connection
            return try VaultDatabase.guarding(path: path) {
                try connection.transaction {
                    let dataVersion = try connection.dataVersion()
                    if let checked = current.checked, checked.dataVersion == dataVersion { return .checkedBefore(checked.records) }
                    let header = try VaultHeader.read(connection, path: path)
                    try verify(header, keys: keys)
                    // Set here, not at the open: a command that reads one entry sorts nothing.
                    try connection.execute(VaultDatabase.inMemoryTemporaries)
                    let (records, made) = try body(connection, header)
                    state?.checked = (dataVersion, records)
                    return .checkedNow(made)
                }
            }
        }
    }

    /// Runs `body` in one read transaction of the read path's connection, with the header once
    /// these keys authenticate it and nothing else checked; nil for a vault without a read path.
    func readingHeader<T: Sendable>(_ body: @Sendable (SQLiteReadConnection, VaultKeys, VaultHeader) throws -> T) throws -> T? {
        let keys = self.keys
        return try reader.withLock { state -> T? in
            guard let current = state else { return nil }
            // Lent to `body` within this lock alone (region analysis cannot see that `body`
            // keeps no reference to it).
            nonisolated(unsafe) let connection = current.connection
            return try VaultDatabase.guarding(path: path) {
                try connection.transaction {
                    let header = try VaultHeader.read(connection, path: path)
                    try verify(header, keys: keys)
                    return try body(connection, keys, header)
                }
            }
        }
    }

    /// What changes with every commit to the file: the read path connection's data_version
    /// (bumped by every other connection's commit, GRDB's included), or else GRDB's
    /// data_version and its own total changes (bumped by its own writes).
    func revision() throws -> (external: UInt64, own: UInt64) {
        let fromReader = try reader.withLock { state in
            try state.map { state in try VaultDatabase.guarding(path: path) { try state.connection.dataVersion() } }
        }
        if let fromReader { return (UInt64(bitPattern: fromReader), 0) }
        return try VaultDatabase.guarding(path: path) {
            try database.read { db in
                let external = try Self.dataVersion(db)
                return (UInt64(bitPattern: external), UInt64(bitPattern: Int64(db.totalChangesCount)))
            }
        }
    }

    /// Runs `body` in a read transaction of GRDB's connection, with the entries once the header
    /// and manifest check out.
    func read<T>(_ body: (Database, VaultKeys, [EntryRecord]) throws -> T) throws -> T {
        try read(trustingReadPath: true, body)
    }

    /// `read`; with `trustingReadPath` false, the manifest is checked unless this connection
    /// checked it at this data_version itself.
    private func read<T>(trustingReadPath: Bool, _ body: (Database, VaultKeys, [EntryRecord]) throws -> T) throws -> T {
        try checkPages()
        return try VaultDatabase.guarding(path: path) {
            try database.read { db in
                // Taken inside the transaction: after any write of this connection, a change of
                // keys included.
                let session = session.withLock { $0 }
                let dataVersion = try Self.dataVersion(db)
                let records = try EntryTable.all(db)
                if session.checkedDataVersion != dataVersion {
                    let header = try verifiedHeader(db, session)
                    let vouched = try trustingReadPath && readPathVouches()
                    if !vouched { try verifyManifest(records, in: db, against: header, keys: session.keys) }
                    checked(dataVersion)
                }
                return try body(db, session.keys, records)
            }
        }
    }

    /// Checks the header and every entry, as unlock does, whatever was checked before.
    func verify() throws {
        session.withLock { $0.checkedDataVersion = nil }
        try read(trustingReadPath: false) { _, _, _ in }
    }

    /// Runs `body` in a write transaction after every check, then seals what it left: the
    /// manifest of the entries and the next revision, under the header MAC (or the header
    /// `sealing` makes, for a change of keys).
    func write<T>(
        _ body: (Database, VaultKeys) throws -> T,
        sealing: ((VaultHeader, Data) throws -> VaultHeader)? = nil, keysAfter: VaultKeys? = nil
    ) throws -> T {
        try checkPages()
        let session = session.withLock { $0 }
        var dataVersion: Int64 = 0
        let result = try VaultDatabase.guarding(path: path) {
            try database.write { db in
                dataVersion = try Self.dataVersion(db)
                // A change of keys: no read skips its checks until the new keys are in place, and
                // no sync row opened under the old keys is taken as read.
                if sealing != nil {
                    self.session.withLock { $0.checkedDataVersion = nil }
                    syncRows.clear()
                }
                try VaultSchema.check(db, format: VaultHeader.currentFormat)
                let header = try verifiedHeader(db, session)
                // As a read: the rows were checked at this data_version, and no other connection
                // has committed since (or the read path checked them, and none has since).
                var index: VaultIndex?
                if try sealing != nil || !(session.checkedDataVersion == dataVersion || readPathVouches()) {
                    index = try checkManifest(try EntryTable.all(db), in: db, against: header, keys: session.keys)
                }
                let previous = try index ?? VaultIndex.read(db, keys: session.keys, header: header)
                let result = try body(db, session.keys)
                // Only the entries the body changed are decrypted again, for their haystacks.
                let keysAfter = keysAfter ?? session.keys
                let manifest = try VaultIndex.made(from: db, keys: keysAfter, previous: previous).store(
                    in: db, keys: keysAfter, replacing: previous)
                if let sealing {
                    try Vault.write(try sealing(header, manifest), in: db)
                } else {
                    try Self.advance(header, to: manifest, keys: session.keys, db)
                }
                return result
            }
        }
        // Committed by this connection: data_version stays, and the file is as sealed. (A change
        // of keys starts a new session, checked again at its first read.)
        if sealing == nil { checked(dataVersion) }
        leaveWAL()
        return result
    }

    /// A vault in WAL mode (made by an earlier build) leaves it after a write, if no other
    /// process has the file open (`VaultJournal.leaveWAL`). The read path's connection holds
    /// WAL's shared lock for as long as it is open, so it is closed first: reads go through
    /// GRDB's connection from then on. Nothing here fails the write, which has committed.
    /// Asked once: a file out of WAL mode never goes back to it.
    private func leaveWAL() {
        guard !journalSettled.load(ordering: .relaxed), case .open(let database) = queue.withLock({ $0 }) else { return }
        guard (try? database.read { try VaultJournal.isWAL($0) }) == true else {
            return journalSettled.store(true, ordering: .relaxed)
        }
        reader.withLock { state in
            state?.connection.close()
            state = nil
        }
        if VaultJournal.leaveWAL(database) { journalSettled.store(true, ordering: .relaxed) }
    }

    /// Runs `body` in a write transaction after the schema and header checks alone, then seals
    /// the header over the manifest `body` returns. No row is checked here: for a write that
    /// checks every row it reads against the index and changes only those, so that the index
    /// stays true of the rest (`replaceSyncAccountRow`). Nothing is recorded as checked.
    func writeChecked<T>(_ body: (Database, VaultKeys, VaultHeader) throws -> (result: T, manifest: Data)) throws -> T {
        let session = session.withLock { $0 }
        return try VaultDatabase.guarding(path: path) {
            try database.write { db in
                try VaultSchema.check(db, format: VaultHeader.currentFormat)
                let header = try verifiedHeader(db, session)
                let (result, manifest) = try body(db, session.keys, header)
                try Self.advance(header, to: manifest, keys: session.keys, db)
                return result
            }
        }
    }

    /// Runs `body` in a read transaction of GRDB's connection after the schema and header checks
    /// alone: no row is checked here (for a read that checks each row it reads against the
    /// index, `readInPlace`).
    func readChecked<T>(_ body: (Database, VaultKeys, VaultHeader) throws -> T) throws -> T {
        let session = session.withLock { $0 }
        return try VaultDatabase.guarding(path: path) {
            try database.read { db in
                try VaultSchema.check(db, format: VaultHeader.currentFormat)
                return try body(db, session.keys, try verifiedHeader(db, session))
            }
        }
    }

    /// SQLite's check of every page of GRDB's connection, once, if its open left it.
    private func checkPages() throws {
        guard pagesUnchecked.load(ordering: .relaxed) else { return }
        try VaultDatabase.checkPages(try database, path: path)
        pagesUnchecked.store(false, ordering: .relaxed)
    }

    /// The header's next revision over `manifest`, stored only if the header is still `header`.
    private static func advance(_ header: VaultHeader, to manifest: Data, keys: VaultKeys, _ db: Database) throws {
        let next = header.advanced(to: manifest, keys: keys)
        try VaultRows.execute(
            db, "UPDATE header SET revision = ?, manifest = ?, mac = ? WHERE id = 1 AND revision = ?",
            [next.revision, next.manifest, next.mac, header.revision])
    }

    /// SQLite's count of commits by other connections, as this connection sees it.
    private static func dataVersion(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db, sql: "PRAGMA data_version") ?? 0
    }

    /// Checks `records` and the sync rows of `db` against `header`'s manifest; the index it
    /// checked them against.
    @discardableResult
    private func checkManifest(_ records: [EntryRecord], in db: some VaultQuerying, against header: VaultHeader, keys: VaultKeys) throws
        -> VaultIndex?
    {
        manifestCheckCount.add(1, ordering: .relaxed)
        return try VaultManifest.check(records, in: db, against: header, keys: keys)
    }

    /// `verifyManifest` with the rows' digests made and the index read (`VaultManifest.stored`).
    private func verifyManifest(
        _ records: [EntryRecord], digests: [[UInt8]], stored: VaultIndex.StoredInOrder?, in db: some VaultQuerying,
        against header: VaultHeader, keys: VaultKeys
    ) throws {
        manifestCheckCount.add(1, ordering: .relaxed)
        try VaultManifest.verify(records, digests: digests, stored: stored, in: db, against: header, keys: keys)
    }

    /// `checkManifest` for a read that keeps no index.
    private func verifyManifest(_ records: [EntryRecord], in db: some VaultQuerying, against header: VaultHeader, keys: VaultKeys) throws {
        manifestCheckCount.add(1, ordering: .relaxed)
        try VaultManifest.verify(records, in: db, against: header, keys: keys)
    }

    /// Whether the read path's connection found the file as its header says and no connection
    /// has committed since: asked inside a transaction of GRDB's connection that has read the
    /// file, that transaction reads the file the read path checked, so its manifest holds without
    /// hashing every row again. (GRDB's connection reads its header itself: the keys may have
    /// changed since the read path's check.)
    private func readPathVouches() throws -> Bool {
        try reader.withLock { state in
            guard let state, let checked = state.checked else { return false }
            return try state.connection.dataVersion() == checked.dataVersion
        }
    }

    /// Records that the file was as its header says at `dataVersion`.
    private func checked(_ dataVersion: Int64) {
        session.withLock { $0.checkedDataVersion = dataVersion }
    }

    /// The header, if it is still the one these keys authenticate.
    private func verifiedHeader(_ db: Database, _ session: Session) throws -> VaultHeader {
        let header = try VaultHeader.read(db, path: path)
        try verify(header, keys: session.keys, slotIDs: session.slotIDs)
        return header
    }

    /// Throws unless `header` is of the current format and authenticated by `keys`.
    private func verify(_ header: VaultHeader, keys: VaultKeys, slotIDs: Set<Data>? = nil) throws {
        guard header.formatVersion == VaultHeader.currentFormat, header.isAuthentic(keys: keys) else {
            // Other slots: another tokens changed the passphrase, and with it the keys.
            let slotIDs = slotIDs ?? session.withLock { $0.slotIDs }
            let rekeyed = header.formatVersion == VaultHeader.currentFormat && Set(header.slots.map(\.id)) != slotIDs
            throw rekeyed ? VaultError.changedSinceUnlock : VaultError.headerTampered
        }
    }

    /// Replaces the passphrase and rotates the master key, in one transaction: a new random
    /// master key, every entry and sync row re-encrypted under it, one fresh slot (new salt) in place of the
    /// old ones, and a header under the new MAC. An old passphrase with an old copy of the header
    /// opens nothing written since.
    public func changePassphrase(to passphrase: Passphrase, kdf: ScryptParameters = .default) throws {
        guard !passphrase.isEmpty else { throw VaultError.emptyPassphrase }
        let fresh = VaultKeys.fresh(vaultID: vaultID)
        let slot = try KeySlot.make(wrapping: fresh.master, passphrase: passphrase, parameters: kdf)
        try write(
            { db, old in
                for record in try EntryTable.all(db) {
                    let account = try EntryCipher.open(record, keys: old)
                    let sealed = try EntryCipher.seal(account, version: record.version + 1, keys: fresh)
                    try EntryTable.reseal(record, updatedAt: record.updatedAt, sealed: sealed, db)
                }
                // The sync state too: under the old key it would open no more.
                for row in try SealedSyncRow.fetchAll(db) {
                    var plaintext = try row.open(keys: old)
                    defer { plaintext.wipe() }
                    try SealedSyncRow.seal(plaintext, table: row.table, id: row.id, version: row.version + 1, keys: fresh).write(db)
                }
            },
            sealing: { header, manifest in
                VaultHeader.make(
                    vaultID: header.vaultID, slots: [slot], revision: header.revision + 1, manifest: manifest, keys: fresh)
            }, keysAfter: fresh)
        session.withLock { $0 = Session(keys: fresh, slotIDs: [slot.id], checkedDataVersion: nil) }
    }

    /// Closes the connections; the file is complete (in WAL mode, the WAL checkpointed).
    public func close() throws {
        syncRows.clear()
        reader.withLock { state in
            state?.connection.close()
            state = nil
        }
        try queue.withLock { queue in
            defer { queue = .closed }
            guard case .open(let database) = queue else { return }
            try VaultDatabase.guarding(path: path) { try database.close() }
        }
    }
}
