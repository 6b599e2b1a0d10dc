import AppConfiguration
import DataLayer
import Domain
import Foundation
import Presentation

/// One line of `tokens doctor`: what was checked, how it stands, and what was found.
package struct HealthCheck: Sendable, Equatable, Encodable {
    /// `ok`; `warn`: works, needs attention; `fail`: does not work; `off`: not set up.
    package enum Status: String, Sendable, Encodable {
        case ok, warn, fail, off
    }

    package let check: String
    package let status: Status
    package let detail: String

    package init(_ check: String, _ status: Status, _ detail: String) {
        self.check = check
        self.status = status
        self.detail = detail
    }
}

/// The checks of `tokens doctor` on an unlocked vault's container: the vault, its backups, its
/// sync membership, the sync server (asked once whether it answers, when given a way to) and the
/// clock. Nothing is written.
package enum DoctorComposer {
    /// How doctor asks the membership's sync server whether it answers, and its time (`tokens`
    /// links the HTTP client; this target does not).
    public typealias ServerContact = @Sendable (SyncMembership) async -> Result<SyncServerHealthReport, SyncError>

    /// `server`: asks the sync server once (nil: no server is contacted, and the clock is judged
    /// by the last sync's measurement).
    public static func checks(of container: any AppContainer, settings: AppSettings, server: ServerContact? = nil) async -> [HealthCheck] {
        guard let vault = container.unlockedVault?.container else {
            return [HealthCheck("vault", .off, "the DEV phase keeps its demo accounts in memory")]
        }
        let now = container.clock.now()
        let count = (try? await container.accountRepository.list().count) ?? 0
        var checks = [HealthCheck("vault", .ok, "\(vault.vaultPath): \(accounts(count)), every entry checked")]
        checks.append(backups(of: vault, settings: settings, now: now))
        checks.append(keyring(settings: settings, now: now))
        // One read of the sync state for the sync line, the server's address and the kept offset.
        let status = try? await vault.syncStore.status()
        var measured = status?.clockOffset
        checks.append(sync(status, now: now))
        if let server, let membership = status?.membership {
            let (check, fresh) = await reach(membership, server)
            checks.append(check)
            measured = fresh ?? measured
        }
        checks.append(clock(measured: measured, timeSync: SystemTimeSync.state(), settings: settings, now: now))
        return checks
    }

    /// The sync server's liveness answer: reachable (and how fast), or why not; its time measures
    /// the clock afresh.
    package static func reach(_ membership: SyncMembership, _ contact: ServerContact) async -> (HealthCheck, ClockOffset?) {
        let server = membership.server.absoluteString
        switch await contact(membership) {
        case .success(let report):
            let milliseconds = Int((report.time.roundTrip * 1000).rounded())
            // The server's own words: printable ASCII only, and short.
            let version =
                report.version.map { ", tokens-server \(String($0.unicodeScalars.filter { (0x21...0x7E).contains($0.value) }.prefix(40)))" }
                ?? ""
            return (HealthCheck("server", .ok, "\(server) answered in \(milliseconds) ms\(version)"), report.time.offset)
        case .failure(let error):
            return (HealthCheck("server", .fail, "\(server): \(SyncStatusText.reason(error))"), nil)
        }
    }

    /// This machine's clock: against the sync server's as `measured` (the server line's answer,
    /// else the last sync's), and whether the kernel says a time-sync daemon keeps it.
    package static func clock(measured: ClockOffset?, timeSync: TimeSyncState, settings: AppSettings, now: Date) -> HealthCheck {
        var parts: [String] = []
        var fixes: [String] = []
        switch timeSync {
        case .synchronized(let error): parts.append("kept in time by the system (estimated error \(String(format: "%.3f", error)) s)")
        case .unsynchronized:
            // Not a warning alone: a virtual machine's clock is often kept by its host, unseen here.
            parts.append("the system does not report it synchronised (no time-sync daemon, or kept by a virtual machine's host)")
        case .unknown: parts.append("the system's time sync cannot be read here")
        }
        if let measured {
            let beyond = measured.isBeyond(TimeInterval(settings.clock.warnSeconds.value))
            let off =
                abs(measured.seconds) <= measured.uncertainty || measured.wholeSeconds == 0
                ? "agrees with the sync server's" : "\(ClockOffsetText.relation(measured)) the sync server's"
            parts.append(
                "\(off), within \(String(format: "%.1f", measured.uncertainty)) s, measured \(age(of: measured.measuredAt, now: now)) ago")
            if beyond {
                fixes.append(ClockOffsetText.timeSyncFix)
                if settings.clock.codesOffset.value == .auto {
                    parts.append("codes are computed at the server's time (codes.offset auto)")
                } else {
                    fixes.append("set codes.offset to auto")
                }
            }
        } else {
            parts.append("not measured against a sync server yet (each sync measures it)")
        }
        let status: HealthCheck.Status
        if !fixes.isEmpty {
            status = .warn
        } else if measured == nil, case .synchronized = timeSync {
            status = .ok
        } else {
            status = measured == nil ? .off : .ok
        }
        if !fixes.isEmpty { parts.append(fixes.joined(separator: ", or ")) }
        return HealthCheck("clock", status, parts.joined(separator: "; "))
    }

    /// The newest copy in the phase's backups folder: there, recent (`backup.stale`), and
    /// opening with the vault's key with every account decrypted.
    static func backups(of vault: any UnlockedVaultContainer, settings: AppSettings, now: Date) -> HealthCheck {
        guard let folder = BackupComposer.defaultFolder(for: settings) else { return HealthCheck("backups", .off, "no vault") }
        let copies = VaultBackupFolder.copies(in: folder)
        guard let newest = copies.last else { return HealthCheck("backups", .warn, "none in \(folder): run tokens backup") }
        let age = "newest \(Self.age(of: newest.written, now: now)) old"
        let accounts: Int
        do {
            accounts = try vault.readBackup(at: newest.path).count
        } catch  where BackupComposer.isOtherKey(error) {
            return HealthCheck("backups", .warn, "\(age), written under another passphrase: run tokens backup")
        } catch {
            return HealthCheck("backups", .fail, "\(age), and it failed its check: \(error)")
        }
        if BackupComposer.isStale(newest.written, settings: settings, now: now) {
            return HealthCheck(
                "backups", .warn, "\(age), more than backup.stale (\(settings.backup.staleDays.value) days): run tokens backup")
        }
        return HealthCheck("backups", .ok, "\(copies.count) in \(folder); \(age), checked (\(Self.accounts(accounts)))")
    }

    /// The key `tokens unlock` keeps in the kernel keyring, if any.
    static func keyring(settings: AppSettings, now: Date) -> HealthCheck {
        guard let kept = KeptUnlock(settings: settings) else { return HealthCheck("keyring", .off, "no vault") }
        guard kept.isEnabled else { return HealthCheck("keyring", .off, "unlock.timeout is 0: every command asks") }
        do {
            guard let expiry = try kept.expiry() else {
                return HealthCheck("keyring", .ok, "no key kept: commands ask for the passphrase (tokens unlock keeps it)")
            }
            return HealthCheck("keyring", .ok, "the vault's key is kept for \(age(of: now, now: expiry)) more (tokens lock drops it)")
        } catch {
            return HealthCheck("keyring", .warn, "the kernel keyring cannot be used here: \(error)")
        }
    }

    /// The sync membership as this machine holds it (`status`: nil when it cannot be read).
    static func sync(_ status: SyncLocalStatus?, now: Date) -> HealthCheck {
        guard let status else { return HealthCheck("sync", .fail, "its state cannot be read") }
        guard let membership = status.membership else { return HealthCheck("sync", .off, "not set up (tokens sync init or join)") }
        let server = "\(membership.server.absoluteString), key version \(membership.keys.version)"
        if status.revoked { return HealthCheck("sync", .fail, "\(server): this machine was revoked; leave and join again") }
        let last = status.lastSync.map { "last sync \(Self.age(of: $0, now: now)) ago" } ?? "never synced"
        let detail = "\(server); \(last); \(status.pending) change\(status.pending == 1 ? "" : "s") to send"
        if status.conflicts > 0 { return HealthCheck("sync", .warn, "\(detail); \(status.conflicts) key conflicts kept as copies") }
        return HealthCheck("sync", .ok, detail)
    }

    static func accounts(_ count: Int) -> String { count == 1 ? "1 account" : "\(count) accounts" }

    /// "5 min", "3 h", "2 days".
    static func age(of date: Date, now: Date) -> String {
        ClockOffsetText.duration(max(0, Int(now.timeIntervalSince(date))))
    }
}
