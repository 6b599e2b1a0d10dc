import Domain
import DomainTestSupport
import Foundation
import Testing

@testable import DataLayer

/// The vault's sync state: what joining records, each local change recorded in its own
/// transaction, a round's outcome written into the entries, and two vaults converging.
@Suite("The vault's sync state")
struct VaultSyncStoreTests {
    /// One machine: a vault, its data source and its sync store, on a clock the test moves.
    struct Machine {
        let folder: VaultFolder
        let vault: UnlockedVault
        let clock: FixedClock
        let source: VaultAccountDataSource
        let store: VaultSyncStore

        init(accounts: [Account] = [], clock: FixedClock = FixedClock()) async throws {
            folder = try VaultFolder()
            vault = try folder.create()
            self.clock = clock
            source = VaultAccountDataSource(vault: vault, clock: clock)
            store = VaultSyncStore(vault: vault, clock: clock)
            try await source.insertAll(accounts)
        }

        func join(device: Int, code: SyncCode = VaultSyncStoreTests.code, joining: Bool = false) async throws {
            let enrolment = SyncEnrolment(deviceID: VaultSyncStoreTests.id(900 + device), token: Array(repeating: UInt8(device), count: 32))
            try await store.begin(
                SyncMembership(code: code, server: URL(string: "http://127.0.0.1:8787")!, enrolment: enrolment), now: clock.now(),
                joining: joining)
        }

        func sync(_ remote: InMemorySyncRemote) async throws -> SyncReport {
            clock.advance(by: 1)
            return try await DefaultSyncUseCase(local: store, remote: remote).execute()
        }

        /// What the user sees: the accounts in order, without dates.
        func content() async throws -> [Account] { try await source.fetchAll().withoutDates }
    }

    static func id(_ number: Int) -> UUID { UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", number))! }
    static let code = SyncCode(account: id(700), key: SyncKey(bytes: Array(repeating: 7, count: 32))!)

    @Test("the CA file given at init or join is remembered with the server, and forgotten on leaving")
    func caFileRemembered() async throws {
        let machine = try await Machine(accounts: [])
        let enrolment = SyncEnrolment(deviceID: Self.id(901), token: Array(repeating: 1, count: 32))
        let membership = SyncMembership(
            code: Self.code, server: URL(string: "https://sync.example.org")!, enrolment: enrolment, caFile: "/etc/tokens/ca.pem")
        try await machine.store.begin(membership, now: machine.clock.now(), joining: false)
        #expect(try await VaultSyncStore(vault: machine.vault, clock: machine.clock).status().membership == membership)
        try await machine.store.end()
        try await machine.join(device: 1)
        #expect(try await machine.store.status().membership?.caFile == nil)
    }

    @Test(
        "a replaced membership keeps its key chain (the devices known revoked too) across unlocks; resending marks every entry pending, the records unchanged"
    )
    func replacedKeys() async throws {
        let machine = try await Machine(accounts: [VaultFolder.account(1), VaultFolder.account(2)])
        try await machine.join(device: 1)
        _ = try await machine.sync(InMemorySyncRemote())
        #expect(try await machine.store.status().pending == 0)
        let before = try await machine.store.snapshot().records
        let membership = try #require(try await machine.store.status().membership)
        let key = { (n: UInt8) in SyncKey(bytes: Array(repeating: n, count: 32))! }
        let rotated = membership.with(
            code: SyncCode(account: membership.code.account, key: key(8)),
            keys: SyncKeyChain(
                version: 3, earlier: [1: Self.code.key, 2: key(5)], deviceSecret: key(9), revoked: [Self.id(801), Self.id(802)]))
        try await machine.store.replace(with: rotated, resend: true)
        let reopened = VaultSyncStore(vault: machine.vault, clock: machine.clock)
        #expect(try await reopened.status().membership == rotated)
        #expect(try await reopened.status().pending == 2)
        #expect(try await reopened.snapshot().records == before)
        let other = SyncMembership(
            code: SyncCode(account: Self.id(701), key: key(8)), server: membership.server, enrolment: membership.enrolment)
        await #expect(throws: SyncError.notSetUp) { try await machine.store.replace(with: other, resend: false) }
    }

    @Test("joining records every entry as pending, in the vault's order, with no base")
    func joinRecordsEverything() async throws {
        let machine = try await Machine(accounts: [VaultFolder.account(1), VaultFolder.account(2), VaultFolder.account(3)])
        #expect(try await machine.store.status() == SyncLocalStatus(membership: nil, pending: 0, lastSync: nil))
        try await machine.join(device: 1)
        let snapshot = try await machine.store.snapshot()
        #expect(snapshot.pending == [Self.id(1), Self.id(2), Self.id(3)])
        #expect(snapshot.bases.isEmpty && snapshot.cursor == 0)
        let positions = [1, 2, 3].map { snapshot.records[Self.id($0)]!.position.value }
        #expect(positions == positions.sorted() && Set(positions).count == 3)
        #expect(snapshot.records[Self.id(1)]!.key.changedAt.device == Self.id(901))
        let status = try await machine.store.status()
        #expect(status.pending == 3 && status.membership?.code == Self.code && status.lastSync == nil)
        await #expect(throws: SyncError.alreadySetUp) { try await machine.join(device: 1) }
    }

    @Test("every local change after joining is recorded in the transaction that makes it; only changed fields are stamped")
    func localChangesArePending() async throws {
        let machine = try await Machine(accounts: [
            VaultFolder.account(1), VaultFolder.account(2), VaultFolder.account(3, kind: .hotp(counter: 4)),
        ])
        try await machine.join(device: 1)
        let joined = try await machine.store.snapshot()
        _ = try await machine.sync(InMemorySyncRemote())
        #expect(try await machine.store.status().pending == 0)

        machine.clock.advance(by: 10)
        var edited = VaultFolder.account(1)
        edited.note = "laptop"
        #expect(try await machine.source.replace(edited))
        _ = try await machine.source.modify(id: Self.id(3)) { $0.kind = .hotp(counter: 5) }
        #expect(try await machine.source.remove(id: Self.id(2)))
        try await machine.source.insert(VaultFolder.account(4))
        try await machine.source.reorder([Self.id(4)])
        let after = try await machine.store.snapshot()
        #expect(after.pending == [Self.id(1), Self.id(2), Self.id(3), Self.id(4)])
        let one = try #require(after.records[Self.id(1)])
        #expect(one.note.value == "laptop" && one.note.changedAt > joined.records[Self.id(1)]!.note.changedAt)
        #expect(one.issuer == joined.records[Self.id(1)]!.issuer)
        #expect(after.records[Self.id(3)]!.counter == 5)
        #expect(after.records[Self.id(2)]!.isDeleted.value)
        // Moved to the front: only the moved entry took a new position.
        #expect(after.records[Self.id(4)]!.position.value < one.position.value)
        #expect(one.position == joined.records[Self.id(1)]!.position)
    }

    @Test("two vaults joined to one account end with the same accounts in the same order")
    func twoVaultsConverge() async throws {
        let remote = InMemorySyncRemote()
        let laptop = try await Machine(accounts: [VaultFolder.account(1), VaultFolder.account(2)])
        let desktop = try await Machine(accounts: [VaultFolder.account(3)])
        try await laptop.join(device: 1)
        _ = try await laptop.sync(remote)
        try await desktop.join(device: 2, joining: true)
        _ = try await desktop.sync(remote)
        _ = try await laptop.sync(remote)
        #expect(try await laptop.content() == (try await desktop.content()))
        #expect(try await laptop.content().map(\.id) == [Self.id(1), Self.id(2), Self.id(3)])

        // Edits on both sides, offline from each other.
        var renamed = VaultFolder.account(1)
        renamed.name = "renamed@example.com"
        #expect(try await laptop.source.replace(renamed))
        #expect(try await desktop.source.remove(id: Self.id(2)))
        try await desktop.source.reorder([Self.id(3)])
        _ = try await laptop.sync(remote)
        _ = try await desktop.sync(remote)
        _ = try await laptop.sync(remote)
        let ends = try await laptop.content()
        #expect(ends == (try await desktop.content()))
        #expect(ends.map(\.id) == [Self.id(3), Self.id(1)])
        #expect(ends.last?.name == "renamed@example.com")
        #expect(try await laptop.store.status().pending == 0)
        #expect(try await desktop.store.status().pending == 0)
        #expect(try await laptop.store.status().lastSync == laptop.clock.now())
    }

    @Test("every kind of account syncs between vaults: TOTP, HOTP, Steam")
    func everyKindSyncs() async throws {
        let remote = InMemorySyncRemote()
        let steam = Account(
            id: Self.id(7), issuer: "Steam", name: "gaben", secret: Secret(bytes: Array("steam-secret".utf8)), kind: .steam, digits: 5,
            createdAt: Date(timeIntervalSince1970: 1_700_000_000), updatedAt: Date(timeIntervalSince1970: 1_700_000_000))
        let laptop = try await Machine(accounts: [VaultFolder.account(1), VaultFolder.account(2, kind: .hotp(counter: 9)), steam])
        let desktop = try await Machine()
        try await laptop.join(device: 1)
        _ = try await laptop.sync(remote)
        try await desktop.join(device: 2, joining: true)
        _ = try await desktop.sync(remote)
        #expect(try await desktop.content() == (try await laptop.content()))
        #expect(try await desktop.source.fetch(id: Self.id(7))?.kind == .steam)
        _ = try await desktop.source.modify(id: Self.id(7)) { $0.note = "edited on the desktop" }
        _ = try await desktop.sync(remote)
    }

    @Test("a key changed on both machines: both versions kept, and the status counts the conflict")
    func conflictCounted() async throws {
        let remote = InMemorySyncRemote()
        let laptop = try await Machine(accounts: [VaultFolder.account(1)])
        let desktop = try await Machine()
        try await laptop.join(device: 1)
        _ = try await laptop.sync(remote)
        try await desktop.join(device: 2, joining: true)
        _ = try await desktop.sync(remote)
        for (machine, secret) in [(laptop, "laptop-secret"), (desktop, "desktop-secret")] {
            _ = try await machine.source.modify(id: Self.id(1)) { $0.secret = Secret(bytes: Array(secret.utf8)) }
        }
        _ = try await laptop.sync(remote)
        let report = try await desktop.sync(remote)
        #expect(report.conflictCopies.count == 1)
        #expect(try await desktop.store.status().conflicts == 1)
        #expect(try await desktop.source.fetchAll().count == 2)
        _ = try await laptop.sync(remote)
        #expect(try await laptop.content() == (try await desktop.content()))
        #expect(try await laptop.store.status().conflicts == 0)
    }

    @Test("the clock offset a sync measured is kept, through syncs that measured none and a passphrase change; gone with the membership")
    func clockOffsetKept() async throws {
        let remote = InMemorySyncRemote()
        let machine = try await Machine(accounts: [VaultFolder.account(1)])
        try await machine.join(device: 1)
        _ = try await machine.sync(remote)
        #expect(try await machine.store.clockOffset() == nil)
        let sample = ServerTimeSample(
            sent: machine.clock.now(), received: machine.clock.now().addingTimeInterval(0.25),
            serverDate: machine.clock.now().addingTimeInterval(-63))
        await remote.tellTime(sample)
        _ = try await machine.sync(remote)
        #expect(try await machine.store.clockOffset() == sample.offset)
        #expect(try await machine.store.status().clockOffset == sample.offset)
        await remote.tellTime(nil)
        _ = try await machine.sync(remote)
        #expect(try await machine.store.clockOffset() == sample.offset)
        try await machine.store.end()
        #expect(try await machine.store.clockOffset() == nil)
    }

    @Test("a change made here while a round is away stays as it is, pending, over the round's new base")
    func changeDuringRoundStays() async throws {
        let machine = try await Machine(accounts: [VaultFolder.account(1)])
        try await machine.join(device: 1)
        let taken = try await machine.store.snapshot()
        var edited = VaultFolder.account(1)
        edited.note = "changed meanwhile"
        #expect(try await machine.source.replace(edited))
        var outcome = taken
        outcome.pending = []
        outcome.bases[Self.id(1)] = RemoteEntry(sequence: 1, record: taken.records[Self.id(1)]!, version: 1)
        outcome.cursor = 1
        try await machine.store.commit(outcome, over: taken)
        let now = try await machine.store.snapshot()
        #expect(now.pending == [Self.id(1)] && now.cursor == 1)
        #expect(now.records[Self.id(1)]!.note.value == "changed meanwhile")
        #expect(now.bases[Self.id(1)]?.sequence == 1)
        #expect(try await machine.source.fetch(id: Self.id(1))?.note == "changed meanwhile")
    }

    @Test("a passphrase change re-encrypts the sync state with the entries: it still opens, under the new key only")
    func passphraseChangeKeepsSyncState() async throws {
        let machine = try await Machine(accounts: [VaultFolder.account(1)])
        try await machine.join(device: 1)
        let before = try await machine.store.snapshot()
        let ciphertexts = try machine.folder.rows("SELECT ciphertext FROM sync_entry").map { $0["ciphertext"] as Data }
        try machine.vault.changePassphrase(to: Passphrase("a new passphrase"), kdf: VaultFolder.fastKDF)
        #expect(try await machine.store.snapshot().records == before.records)
        #expect(try await machine.store.status().membership?.code == Self.code)
        #expect(try machine.folder.rows("SELECT ciphertext FROM sync_entry").map { $0["ciphertext"] as Data } != ciphertexts)
        try machine.vault.close()
        let reopened = try Vault.open(at: machine.folder.path, passphrase: Passphrase("a new passphrase"))
        #expect(try await VaultSyncStore(vault: reopened, clock: machine.clock).snapshot().records == before.records)
        try reopened.close()
    }

    @Test("the manifest covers the sync rows: one changed or removed outside Tokens is refused")
    func manifestCoversSyncRows() async throws {
        let machine = try await Machine(accounts: [VaultFolder.account(1)])
        try await machine.join(device: 1)
        try machine.vault.close()
        try machine.folder.tamper("UPDATE sync_entry SET version = version + 1")
        try await machine.folder.expectFailure(.modified(.entries))
        try machine.folder.tamper("UPDATE sync_entry SET version = version - 1")
        try machine.folder.tamper("DELETE FROM sync_account")
        try await machine.folder.expectFailure(.modified(.entries))
    }

    @Test("leaving forgets the membership, the sync key and the token; the journal stays and goes on stamping changes")
    func leaving() async throws {
        let machine = try await Machine(accounts: [VaultFolder.account(1)])
        await #expect(throws: SyncError.notSetUp) { try await machine.store.end() }
        await #expect(throws: SyncError.notSetUp) { try await machine.store.snapshot() }
        try await machine.join(device: 1)
        try await machine.store.end()
        #expect(try await machine.store.status() == SyncLocalStatus(membership: nil, pending: 0, lastSync: nil))
        await #expect(throws: SyncError.notSetUp) { try await machine.store.snapshot() }
        await #expect(throws: SyncError.notSetUp) { try await machine.store.end() }
        #expect(try await machine.source.fetchAll().map(\.id) == [Self.id(1)])
        let account = try machine.vault.read { db, keys, _ in try VaultSyncTables(db: db, keys: keys).account()?.state }
        #expect(account?.membership == nil && account?.account == Self.code.account)
        try machine.vault.close()
        let bytes = try machine.folder.snapshot().values.reduce(Data(), +)
        #expect(bytes.range(of: Data(repeating: 7, count: 32)) == nil && bytes.range(of: Data(repeating: 1, count: 32)) == nil)
        // Changes after leaving are still stamped.
        let reopened = try Vault.open(at: machine.folder.path, passphrase: Passphrase("correct horse"))
        machine.clock.advance(by: 60)
        try await VaultAccountDataSource(vault: reopened, clock: machine.clock).insert(VaultFolder.account(2))
        let entries = try reopened.read { db, keys, _ in try VaultSyncTables(db: db, keys: keys).entries() }
        #expect(entries[Self.id(2)]?.state.record.key.changedAt.milliseconds == SyncAccountState.milliseconds(machine.clock.now()))
    }

    @Test(
        "a machine that leaves and joins again: its stale copy loses to the edit made elsewhere meanwhile, its own edit made while away is kept"
    )
    func rejoinKeepsLaterEdits() async throws {
        let remote = InMemorySyncRemote()
        let clock = FixedClock()
        let laptop = try await Machine(accounts: [VaultFolder.account(1), VaultFolder.account(2, kind: .hotp(counter: 1))], clock: clock)
        let desktop = try await Machine(clock: clock)
        try await laptop.join(device: 1)
        try await desktop.join(device: 2, joining: true)
        _ = try await laptop.sync(remote)
        _ = try await desktop.sync(remote)
        _ = try await laptop.source.modify(id: Self.id(1)) { $0.note = "old" }
        _ = try await laptop.sync(remote)
        _ = try await desktop.sync(remote)
        try await desktop.store.end()
        clock.advance(by: 60)
        _ = try await laptop.source.modify(id: Self.id(1)) { $0.note = "new" }
        _ = try await laptop.source.modify(id: Self.id(2)) { $0.note = "counter used here" }
        _ = try await laptop.sync(remote)
        clock.advance(by: 60)
        // Away from the account, the desktop uses the HOTP code and renames the first account.
        _ = try await desktop.source.modify(id: Self.id(2)) { $0.kind = .hotp(counter: 5) }
        _ = try await desktop.source.modify(id: Self.id(1)) { $0.issuer = "Renamed while away" }
        try await desktop.join(device: 3, joining: true)
        _ = try await desktop.sync(remote)
        _ = try await laptop.sync(remote)
        let content = try await laptop.content()
        #expect(try await desktop.content() == content)
        #expect(content.first { $0.id == Self.id(1) }.map { ($0.note, $0.issuer) } ?? ("", "") == ("new", "Renamed while away"))
        #expect(
            content.first { $0.id == Self.id(2) }.map { ($0.note, $0.kind) } ?? ("", .steam) == ("counter used here", .hotp(counter: 5)))
    }

    @Test("joining another account after leaving: every live entry goes to it as new, tombstones of the old account do not")
    func joinAnotherAccount() async throws {
        let remote = InMemorySyncRemote()
        let machine = try await Machine(accounts: [VaultFolder.account(1), VaultFolder.account(2)])
        try await machine.join(device: 1)
        _ = try await machine.sync(remote)
        #expect(try await machine.source.remove(id: Self.id(2)))
        try await machine.store.end()
        let other = InMemorySyncRemote()
        try await machine.join(device: 2, code: SyncCode(account: Self.id(701), key: SyncKey(bytes: Array(repeating: 8, count: 32))!))
        let snapshot = try await machine.store.snapshot()
        #expect(snapshot.pending == [Self.id(1)] && snapshot.bases.isEmpty && snapshot.cursor == 0)
        _ = try await machine.sync(other)
        #expect(await other.stored.map(\.record.id) == [Self.id(1)])
    }

    @Test("the sync state is sealed: no secret, token or sync key is stored in the clear")
    func sealed() async throws {
        let machine = try await Machine(accounts: [VaultFolder.account(1)])
        try await machine.join(device: 1)
        try machine.vault.close()
        let bytes = try machine.folder.snapshot().values.reduce(Data(), +)
        for needle in ["secret-1-xyzzy-plugh", "user1@example.com", "127.0.0.1"] {
            #expect(bytes.range(of: Data(needle.utf8)) == nil, "\(needle) is in the file")
        }
        #expect(bytes.range(of: Data(repeating: 7, count: 32)) == nil)
    }
}

/// The vault's store keeps the contract the in-memory fake keeps (Domain runs the same).
@Suite("SyncLocalStore contract: the vault")
struct VaultSyncStoreContractTests {
    struct Subject: SyncLocalStoreSubject {
        /// Kept only so that the vault's folder lives as long as the subject (never touched).
        nonisolated(unsafe) let folder: VaultFolder
        let source: VaultAccountDataSource
        let store: any SyncLocalStore

        init() async throws {
            let machine = try await VaultSyncStoreTests.Machine()
            try await machine.join(device: 1)
            (folder, source, store) = (machine.folder, machine.source, machine.store)
        }

        func add(_ number: Int) async throws -> UUID {
            try await source.insert(VaultFolder.account(number))
            return VaultFolder.account(number).id
        }

        func edit(_ id: UUID, note: String) async throws {
            _ = try await source.modify(id: id) { $0.note = note }
        }

        func delete(_ id: UUID) async throws {
            #expect(try await source.remove(id: id))
        }
    }

    @Test("VaultSyncStore keeps the contract", arguments: SyncLocalStoreContract.names)
    func contract(clause: String) async throws {
        try await SyncLocalStoreContract.check(named: clause)(try await Subject())
    }
}

/// DEV's in-process server keeps the contract the real server keeps.
@Suite("SyncRemote contract: DEV's in-process server")
struct InProcessSyncServerContractTests {
    @Test("InProcessSyncServer keeps the contract", arguments: SyncRemoteContract.names)
    func contract(clause: String) async throws {
        try await SyncRemoteContract.check(named: clause)(InProcessSyncServer())
    }
}
