import Foundation
import Testing

@testable import DataLayer

@Suite("The backups folder")
struct VaultBackupFolderTests {
    @Test("a copy's name is its UTC time to the millisecond, read back exactly; names sort by time")
    func namesRoundTrip() throws {
        let date = Date(timeIntervalSince1970: 1_795_953_600.123)
        let name = VaultBackupFolder.fileName(at: date)
        #expect(name == "vault-20261129T120000.123Z.sqlite")
        let read = try #require(VaultBackupFolder.written(name: name))
        #expect(abs(read.timeIntervalSince(date)) < 0.0005)
        let later = VaultBackupFolder.fileName(at: date + 0.5)
        #expect(name < later)
    }

    @Test("any other name is not a copy: it is never listed, so never removed")
    func otherNames() {
        for name in [
            "vault.sqlite", "vault-20261129T120000.123Z.sqlite-wal", "vault-20261129T120000.123Z.sqlite.writing-42",
            "vault-20261399T120000.123Z.sqlite", "vault-2026112xT120000.123Z.sqlite", "notes-20261129T120000.123Z.sqlite",
            "vault-20260230T120000.000Z.sqlite",
        ] {
            #expect(VaultBackupFolder.written(name: name) == nil, "\(name)")
        }
    }

    @Test("copies are listed oldest first, other files left out; a missing folder has none")
    func lists() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tokens-backups-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let names = ["vault-20261129T120000.000Z.sqlite", "vault-20251129T120000.000Z.sqlite", "readme.txt"]
        for name in names { try Data().write(to: folder.appendingPathComponent(name)) }
        #expect(VaultBackupFolder.copies(in: folder.path).map(\.path) == [names[1], names[0]].map { folder.path + "/" + $0 })
        #expect(VaultBackupFolder.copies(in: folder.path + "/none").isEmpty)
    }
}

@Suite("The backups folder: what an interrupted backup left")
struct AbandonedBackupTests {
    @Test("a copy's .writing-PID file and SQLite's beside it go once PID runs no more; a running writer's and other names stay")
    func removesAbandoned() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tokens-abandoned-\(UUID())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let copy = VaultBackupFolder.fileName(at: Date(timeIntervalSince1970: 1_795_953_600))
        // Beyond any pid_max Linux allows (2^22): no process runs under it.
        let dead = "\(copy).writing-999999999"
        let running = "\(copy).writing-\(getpid())"
        let others = [copy, "notes.txt.writing-999999999", "\(copy).writing-", "\(copy).writing-12x", "\(copy).writing--5"]
        for name in [dead, dead + "-journal", running] + others { try Data("x".utf8).write(to: URL(fileURLWithPath: folder + "/" + name)) }

        #expect(VaultBackupFolder.removeAbandoned(in: folder) == 1)
        let left = Set(try FileManager.default.contentsOfDirectory(atPath: folder))
        #expect(left == Set([running] + others))
        #expect(VaultBackupFolder.removeAbandoned(in: folder + "/missing") == 0)
    }
}
