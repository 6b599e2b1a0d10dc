import AppComposition
import AppConfiguration
import Foundation
import Testing

@Suite("Backups, as App places and judges them")
struct BackupComposerTests {
    /// 2026-11-29 12:00 UTC.
    static let now = Date(timeIntervalSince1970: 1_795_953_600)

    @Test("the screen's warning: none while the newest copy is recent; its age in days once older than backup.stale; none for DEV")
    func staleWarning() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tokens-app-backups-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let settings = AppSettings(
            phase: Sourced(.real, from: .default), logLevel: Sourced(.info, from: .default),
            vaultPath: Sourced(folder.appendingPathComponent("vault.sqlite").path, from: .default),
            backup: BackupSettings(staleDays: Sourced(7, from: .default)), configFile: "/x", configFileExists: false)
        #expect(BackupComposer.staleWarning(settings: settings, now: Self.now) == "no backup yet")
        let backups = folder.appendingPathComponent("backups")
        try FileManager.default.createDirectory(at: backups, withIntermediateDirectories: true)
        try Data().write(to: backups.appendingPathComponent(BackupComposer.fileName(at: Self.now - 9 * 86_400)))
        #expect(BackupComposer.staleWarning(settings: settings, now: Self.now) == "no backup for 9 days")
        try Data().write(to: backups.appendingPathComponent(BackupComposer.fileName(at: Self.now - 3600)))
        #expect(BackupComposer.staleWarning(settings: settings, now: Self.now) == nil)
        let dev = AppSettings(
            phase: Sourced(.dev, from: .default), logLevel: Sourced(.info, from: .default), configFile: "/x", configFileExists: false)
        #expect(BackupComposer.staleWarning(settings: dev, now: Self.now) == nil)
    }
}
