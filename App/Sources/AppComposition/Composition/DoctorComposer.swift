import AppConfiguration
import DataLayer
import Domain
import Foundation

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

/// The checks of `tokens doctor` on an unlocked vault's container: the vault, its backups and
/// its sync membership, each read from what is on this machine (nothing sent anywhere).
package enum DoctorComposer {
    public static func checks(of container: any AppContainer, settings: AppSettings) async -> [HealthCheck] {
        guard let vault = container.unlockedVault?.container else {
            return [HealthCheck("vault", .off, "the DEV phase keeps its demo accounts in memory")]
        }
        let count = (try? await container.accountRepository.list().count) ?? 0
        var checks = [HealthCheck("vault", .ok, "\(vault.vaultPath): \(accounts(count)), every entry checked")]
        checks.append(backups(of: vault, settings: settings, now: container.clock.now()))
        checks.append(keyring(settings: settings, now: container.clock.now()))
        if let syncing = container.syncing?.container { checks.append(await sync(syncing, now: container.clock.now())) }
        return checks
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

    /// The sync membership as this machine holds it; the server is not contacted.
    static func sync(_ syncing: any SyncingContainer, now: Date) async -> HealthCheck {
        guard let status = try? await syncing.syncStore.status() else { return HealthCheck("sync", .fail, "its state cannot be read") }
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
        let seconds = max(0, Int(now.timeIntervalSince(date)))
        switch seconds {
        case ..<120: return "\(seconds) s"
        case ..<7_200: return "\(seconds / 60) min"
        case ..<172_800: return "\(seconds / 3600) h"
        default: return "\(seconds / 86_400) days"
        }
    }
}
