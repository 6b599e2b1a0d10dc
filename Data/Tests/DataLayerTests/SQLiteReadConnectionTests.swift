import Foundation
import GRDB
import Testing

@testable import DataLayer

/// `SQLiteReadConnection` keeps its statements prepared between runs: a statement run again
/// reads the file as it is then, holds no lock between runs, and the same SQL inside its own run
/// is a statement of its own.
@Suite("The read path's connection and its prepared statements")
struct SQLiteReadConnectionTests {
    let folder = try! VaultFolder()

    /// A file with a table `t` of the numbers `values`, written by GRDB in rollback-journal
    /// mode (as a vault is), and the connection under test on it.
    private func database(_ values: [Int]) throws -> (DatabaseQueue, SQLiteReadConnection) {
        try FileManager.default.createDirectory(at: folder.directory, withIntermediateDirectories: true)
        var configuration = Configuration()
        configuration.busyMode = .immediateError
        let queue = try DatabaseQueue(path: folder.path, configuration: configuration)
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE t (x INTEGER NOT NULL)")
            for value in values { try db.execute(sql: "INSERT INTO t (x) VALUES (?)", arguments: [value]) }
        }
        return (queue, try SQLiteReadConnection(path: folder.path, busyTimeout: 0))
    }

    private func numbers(_ connection: SQLiteReadConnection) throws -> [Int] {
        try connection.rows("SELECT x FROM t ORDER BY x") { try $0.integer(0) }
    }

    @Test("a statement run again reads what another connection wrote since, after a schema change too")
    func runAgainReadsAfresh() throws {
        let (queue, connection) = try database([1])
        defer { connection.close() }
        #expect(try numbers(connection) == [1])
        try queue.write { db in try db.execute(sql: "INSERT INTO t (x) VALUES (2)") }
        #expect(try numbers(connection) == [1, 2])
        try queue.write { db in
            try db.execute(sql: "ALTER TABLE t ADD COLUMN y TEXT")
            try db.execute(sql: "INSERT INTO t (x) VALUES (3)")
        }
        #expect(try numbers(connection) == [1, 2, 3])
        try queue.close()
    }

    @Test("a run stopped by an error holds no lock after it: another connection writes at once")
    func stoppedRunReleasesLock() throws {
        let (queue, connection) = try database([1, 2, 3])
        defer { connection.close() }
        struct Stop: Error {}
        #expect(throws: Stop.self) { try connection.rows("SELECT x FROM t ORDER BY x") { _ in throw Stop() } }
        // With the statement left in the middle of its rows, its shared lock would refuse this
        // write (busy, no waiting).
        try queue.write { db in try db.execute(sql: "INSERT INTO t (x) VALUES (4)") }
        #expect(try numbers(connection) == [1, 2, 3, 4])
        try queue.close()
    }

    @Test("the same SQL run inside its own rows is a statement of its own")
    func nestedSameSQL() throws {
        let (queue, connection) = try database([1, 2])
        defer { connection.close() }
        let nested = try connection.rows("SELECT x FROM t ORDER BY x") { row in
            (try row.integer(0), try numbers(connection))
        }
        #expect(nested.map(\.0) == [1, 2])
        #expect(nested.map(\.1) == [[1, 2], [1, 2]])
        #expect(try numbers(connection) == [1, 2])
        try queue.close()
    }

    @Test("more distinct statements than are kept: each runs, again and again, with its own result")
    func manyStatements() throws {
        let (queue, connection) = try database([])
        defer { connection.close() }
        for _ in 0..<3 {
            for number in 0..<40 {
                #expect(try connection.rows("SELECT \(number)") { try $0.integer(0) } == [number])
            }
        }
        try queue.close()
    }

    @Test("closed: a run is refused with SQLite's misuse code")
    func closed() throws {
        let (queue, connection) = try database([1])
        #expect(try numbers(connection) == [1])
        connection.close()
        let error = try #require(throws: SQLiteReadError.self) { try numbers(connection) }
        #expect(error.code == 21)  // SQLITE_MISUSE
        try queue.close()
    }
}
