import Domain
import DomainTestSupport
import Foundation
import Testing

/// `tokens history` and `tokens restore` in the rules: versions put in order with what each
/// changed, and a version brought back as a change of this machine.
@Suite("Account history and restore")
struct AccountHistoryTests {
    static let id = UUID(uuid: (0, 0, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, 7))
    static let laptop = UUID(uuid: (0, 0, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0xDE, 1))
    static let phone = UUID(uuid: (0, 0, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0xDE, 2))
    static let first = SyncRecord.sample(id, issuer: "Xco", note: "old")
    static let second = first.noted("new", at: 2_000)

    /// A server's history, in pages of `pageSize`.
    struct PagedHistory: SyncHistoryRemote {
        let versions: [EarlierVersion]
        let pageSize: Int
        func earlier(after cursor: Int64) async throws(SyncError) -> EarlierPage {
            let after = versions.filter { $0.entry.sequence > cursor }
            let page = Array(after.prefix(pageSize))
            return EarlierPage(
                versions: page, unreadable: page.isEmpty ? 0 : 1, last: page.last?.entry.sequence, hasMore: after.count > pageSize)
        }
    }

    static func earlier(_ record: SyncRecord, version: UInt64, sequence: Int64) -> EarlierVersion {
        EarlierVersion(
            entry: RemoteEntry(sequence: sequence, record: record, version: version),
            replacedAt: Date(timeIntervalSince1970: Double(sequence)))
    }

    @Test("versions are ordered; each names the fields it changed and the machine that changed them; a re-sent copy shows once")
    func assembled() throws {
        var third = Self.second
        third.issuer = Stamped("Xco Inc", changedAt: HybridTimestamp(milliseconds: 3_000, device: Self.phone))
        let history = try #require(
            AccountHistory.assemble(
                id: Self.id,
                earlier: [
                    Self.earlier(Self.second, version: 2, sequence: 5), Self.earlier(Self.first, version: 1, sequence: 1),
                    Self.earlier(Self.second, version: 3, sequence: 9),
                ],
                current: third, currentVersion: 4))
        #expect(history.versions.map(\.version) == [1, 3, 4])
        #expect(history.versions[0].changed == SyncField.allCases)
        #expect(history.versions[1].changed == [.note])
        #expect(history.versions[1].madeAt.device == Self.laptop)
        #expect(history.versions[2].changed == [.issuer] && history.versions[2].madeAt.device == Self.phone)
        #expect(history.latest.isCurrent && !history.isDeleted)
        #expect(history.matches("xco") && history.matches("00000000") && !history.matches("other"))
        #expect(history.version(3)?.record == Self.second && history.version(2) == nil)
    }

    @Test("every page is read; the record this machine holds comes last; a deleted entry's versions remain")
    func readsEveryPage() async throws {
        let local = InMemorySyncLocalStore()
        await local.change(Self.id) { $0 = Self.second.deleted(at: 3_000) }
        let gone = UUID(uuid: (0, 0, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, 8))
        let remote = PagedHistory(
            versions: [
                Self.earlier(Self.first, version: 1, sequence: 1),
                Self.earlier(SyncRecord.sample(gone, issuer: "Gone"), version: 1, sequence: 2),
                Self.earlier(Self.second, version: 2, sequence: 3),
            ], pageSize: 1)
        let report = try await AccountHistoryUseCase(local: local).execute(remote: remote)
        #expect(report.unreadable == 3)
        #expect(report.accounts.map(\.id) == [Self.id, gone])
        let mine = report.accounts[0]
        #expect(mine.versions.map(\.version) == [1, 2, 3])
        #expect(mine.latest.changed == [.deleted] && mine.isDeleted)
        #expect(report.accounts[1].isDeleted && !report.accounts[1].latest.isCurrent)
    }

    @Test("a restore sets the fields back as a change here, never lowers an HOTP counter, and adds a deleted account again under its id")
    func restore() async throws {
        var hotp = SyncRecord.sample(Self.id, kind: .hotp, note: "old")
        hotp.counter = 3
        let clock = FixedClock(unix: 1_800_000_000)
        var current = try #require(SyncRecording.account(from: hotp.noted("new", at: 2_000), previous: nil))
        current.kind = .hotp(counter: 9)
        let repository = TestAccountRepository([current])
        let restore = RestoreAccountVersionUseCase(repository: repository, clock: clock)
        let version = AccountVersion(version: 1, record: hotp, replacedAt: Date(), changed: SyncField.allCases)
        let restored = try await restore.execute(version)
        #expect(restored.note == "old" && restored.kind == .hotp(counter: 9) && restored.updatedAt == clock.now())
        #expect(try await repository.get(id: Self.id) == restored)

        let empty = TestAccountRepository()
        let back = try await RestoreAccountVersionUseCase(repository: empty, clock: clock).execute(version)
        #expect(back.id == Self.id && back.note == "old" && back.kind == .hotp(counter: 3))
        #expect(try await empty.list().map(\.id) == [Self.id])
    }
}
