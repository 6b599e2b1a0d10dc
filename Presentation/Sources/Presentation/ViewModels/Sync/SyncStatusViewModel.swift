import Domain
import Foundation
import Observation

/// The sync status on the list screen: syncing, up to date, offline with the changes that wait,
/// or failed with the reason; `s` syncs now. Conflicts (a key changed on two machines) become
/// notices. One sync at a time.
@MainActor
@Observable
public final class SyncStatusViewModel {
    /// What the last sync left.
    public enum Status: Equatable, Sendable {
        case upToDate(at: Date)
        /// The server could not be reached: `pending` local changes wait for it.
        case offline(pending: Int)
    }

    /// Output: the status (failed carries the reason, in the user's words).
    public private(set) var state: Loadable<Status> = .notRequested
    /// Output: what the user should know about the last sync, once.
    public private(set) var notices: [String] = []
    /// Output: false once a sync found that this vault syncs with nothing (the header then shows
    /// nothing, and the schedule stops).
    public private(set) var isSyncing = true

    @ObservationIgnored private let sync: any SyncUseCase
    @ObservationIgnored private let local: any SyncLocalStore
    @ObservationIgnored private let clock: any WallClock
    @ObservationIgnored private let server: String?
    @ObservationIgnored private let clockCheck: ClockCheckViewModel?

    /// `server` names where it syncs when that is not a server the user set up (DEV's in-process
    /// one): "synced 14:02 (DEV: in memory)", so that no one takes it for a real sync.
    /// `clockCheck` is told what each sync measured of the server's clock.
    public init(
        sync: any SyncUseCase, local: any SyncLocalStore, clock: any WallClock, server: String? = nil,
        clockCheck: ClockCheckViewModel? = nil
    ) {
        self.sync = sync
        self.local = local
        self.clock = clock
        self.server = server
        self.clockCheck = clockCheck
    }

    /// Input: sync now (on start, every interval, or `s`). Ignored while a sync runs.
    public func syncNow() async {
        if state.isLoading { return }
        state = .isLoading(last: state.value)
        await clockCheck?.loadStored()
        do {
            let report = try await sync.execute()
            isSyncing = true
            state = .loaded(.upToDate(at: clock.now()))
            notices = SyncStatusText.notices(for: report)
            clockCheck?.measured(report.clockOffset)
        } catch SyncError.notSetUp {
            // Not an error on the screen: this vault does not sync. `s` says how to start.
            if !isSyncing { notices = [SyncStatusText.reason(.notSetUp)] }
            isSyncing = false
            state = .notRequested
        } catch let error as SyncError where error == .offline || error == .timedOut {
            state = .loaded(.offline(pending: (try? await local.pendingCount()) ?? 0))
        } catch let error as SyncError {
            state = .failed(SyncStatusText.reason(error))
        } catch {
            state = .failed("sync failed: the local vault could not be read or written")
        }
    }

    /// Input: the notices were shown.
    public func dismissNotices() { notices = [] }

    /// The status line: "syncing…", "synced 14:02", "offline: 3 changes wait", or the failure.
    public func line(formattingTime: (Date) -> String) -> String {
        switch state {
        case .notRequested: ""
        case .isLoading: "syncing…"
        case .loaded(.upToDate(let date)): "synced \(formattingTime(date))" + (server.map { " (\($0))" } ?? "")
        case .loaded(.offline(let pending)):
            pending == 0 ? "offline" : "offline: \(pending) change\(pending == 1 ? "" : "s") wait\(pending == 1 ? "s" : "")"
        case .failed(let reason): reason
        }
    }
}

/// Sync's outcomes in the user's words.
public enum SyncStatusText {
    /// Why a sync failed, and what to do.
    public static func reason(_ error: SyncError) -> String {
        switch error {
        case .offline: "offline: the server cannot be reached"
        case .timedOut: "the server did not answer in time"
        case .insecureConnection: "sync refused: the server's certificate is not trusted"
        case .unauthorized: "sync refused: the server does not know this machine (tokens sync join)"
        case .revoked: "this machine was revoked from sync: tokens sync leave, then tokens sync join with the code another machine shows"
        case .cursorExpired: "a full resync is needed; it runs on the next sync"
        case .rateLimited(let seconds): "the server asks to wait \(seconds) s before trying again"
        case .incompatible: "the server speaks another version of sync: update Tokens or the server"
        case .server: "the server failed; sync will try again"
        case .unavailable: "the server cannot reach its storage now (nothing was sent or lost); sync will try again"
        case .answerTooLarge: "the server sent an answer too large for sync; it was refused, nothing changed"
        case .endlessPages: "the server's pages never came to an end; sync stopped, nothing changed"
        case .corruptEntry: "an entry from the server could not be decrypted; it was left alone"
        case .stillConflicting: "entries kept changing on other machines; sync will try again"
        case .accountExists: "this sync account is already open on the server: join it with its sync code"
        case .invitationRequired:
            "this server opens sync accounts only with an invitation: ask its operator for one, then tokens sync init --invite"
        case .invitationRefused: "the server refused the invitation (unknown, expired or already used): ask its operator for another"
        case .signupClosed: "this server opens no new sync accounts: ask its operator, or join an account with its sync code"
        case .unknownDevice: "the sync account has no such device (tokens sync devices lists them)"
        case .notSetUp: "this machine does not sync yet (tokens sync init, or tokens sync join with a sync code)"
        case .alreadySetUp: "this machine already syncs with a sync account (tokens sync leave first)"
        case .keyChanged: "the sync key was replaced on another machine; the next sync takes it"
        case .keyNotShared:
            "the sync key was replaced and not shared with this machine: tokens sync leave, then tokens sync join with the code another machine shows"
        case .keyConflict: "another machine replaced the sync key at the same time; try again"
        case .serverKeyBehind:
            "the server holds an older sync key than this machine (restored from a backup?) and this machine cannot give it the new one: nothing was sent; sync from the machine that replaced the key"
        case .quotaExceeded:
            "the server holds as much as it allows for this sync account: nothing was sent (delete accounts, or ask its operator)"
        case .historyUnavailable: "the server keeps no history of the accounts (a version of tokens-server from before it did)"
        }
    }

    /// The notices a finished sync leaves.
    public static func notices(for report: SyncReport) -> [String] {
        var notices: [String] = []
        let copies = report.conflictCopies.count
        if copies > 0 {
            notices.append(
                "\(copies) account\(copies == 1 ? " had its" : "s had their") key changed on two machines: the other version is kept as a copy"
            )
        }
        if report.resynced { notices.append("a full resync ran: this machine had been away longer than the server keeps deletions") }
        if report.serverBehind {
            notices.append(
                "the server had lost changes this machine had seen (restored from a backup?): this machine's accounts were merged and sent again"
            )
        }
        if report.keysGivenBack > 0 {
            notices.append(
                "the server had lost a replacement of the sync key (restored from a backup?): this machine gave it back, with the revocations it knew"
            )
        }
        let replays = report.refusedReplays.count
        if replays > 0 {
            notices.append(
                "the server sent an older version of \(replays) account\(replays == 1 ? "" : "s") than this machine had seen: refused, and this machine's version sent again (check the server)"
            )
        }
        let lost = report.lostAcknowledged.count
        if lost > 0 {
            notices.append(
                "the server had acknowledged \(lost) change\(lost == 1 ? "" : "s") it no longer holds: sent again (check the server)")
        }
        let cleaned = report.cleanedText.count
        if cleaned > 0 {
            notices.append(
                "\(cleaned) account\(cleaned == 1 ? "" : "s") from another machine had terminal control or bidi characters in \(cleaned == 1 ? "its" : "their") text: removed here"
            )
        }
        let unreadable = report.unreadable.count
        if unreadable > 0 {
            notices.append(
                "\(unreadable) entr\(unreadable == 1 ? "y" : "ies") on the server could not be opened (another key, damage or tampering): set aside, and where this machine holds \(unreadable == 1 ? "it" : "them"), its version was sent again"
            )
        }
        if report.resent > 0, !report.serverBehind {
            notices.append(
                "\(report.resent) account\(report.resent == 1 ? "" : "s") the server no longer had (or had in an older version) sent again")
        }
        return notices
    }
}
