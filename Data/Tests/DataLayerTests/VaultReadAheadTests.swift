import Domain
import DomainTestSupport
import Foundation
import Synchronization
import Testing

@testable import DataLayer

/// A read of every entry decrypts and hashes the rows on the other cores while the rest are
/// read (`ReadAhead`): the same accounts in the user's order as a read in turn, nothing given
/// out unless every row checks out, and the errors of a read in turn, in its order.
@Suite("Reading ahead")
struct VaultReadAheadTests {
    struct Failure: Error, Equatable {
        let at: Int
    }

    /// `ReadAhead.map` over `count` numbers handed in batches of 256, as the vault hands rows.
    private static func map(
        _ count: Int, failingAt failures: Set<Int> = [], check: @escaping ([Int]) throws -> Void = { _ in }
    ) throws -> (checked: [Int], mapped: Result<[Int], any Error>) {
        let numbers = Array(0..<count)
        let (checked, mapped) = try ReadAhead.map(
            first: { $0 * 2 },
            then: { number in
                if failures.contains(number) { throw Failure(at: number) }
                return number * 3
            },
            reading: { hand in
                for start in stride(from: 0, to: numbers.count, by: 256) { hand(Array(numbers[start..<min(start + 256, numbers.count)])) }
                return numbers.count
            },
            checking: { read, firsts in
                #expect(read == count)
                try check(firsts)
                return firsts
            })
        return (checked, mapped)
    }

    @Test("gives both stages of every element in the order handed, however many batches", arguments: [0, 1, 255, 256, 10_007])
    func inOrder(count: Int) throws {
        let (checked, mapped) = try Self.map(count)
        #expect(checked == (0..<count).map { $0 * 2 })
        #expect(try mapped.get() == (0..<count).map { $0 * 3 })
    }

    @Test("a second stage that fails gives the first failure in order, after the check of every row")
    func secondFails() throws {
        let checks = Atomic(0)
        let (checked, mapped) = try Self.map(10_000, failingAt: [9_000, 2_500]) { _ in checks.add(1, ordering: .relaxed) }
        #expect(checked.count == 10_000)
        #expect(checks.load(ordering: .relaxed) == 1)
        #expect(throws: Failure(at: 2_500)) { try mapped.get() }
    }

    @Test("a check that fails is what the read throws, whatever the second stages did")
    func checkFails() {
        #expect(throws: Failure(at: -1)) { try Self.map(5_000, failingAt: [10]) { _ in throw Failure(at: -1) } }
    }

    @Test("a read that fails throws its error")
    func readFails() {
        let mapped = Atomic(0)
        #expect(throws: Failure(at: -2)) {
            _ = try ReadAhead.map(
                first: { (number: Int) in number },
                then: { number in
                    mapped.add(1, ordering: .relaxed)
                    return number
                },
                reading: { hand -> Int in
                    hand(Array(0..<256))
                    throw Failure(at: -2)
                },
                checking: { _, _ in () })
        }
        #expect(mapped.load(ordering: .relaxed) <= 256, "only the batch handed in was taken")
    }

    @Test(
        "a vault of several batches, moved out of the table's order, reads back in the user's order; a damaged row in the last batch is refused"
    )
    func vaultInUserOrder() async throws {
        let folder = try VaultFolder()
        let accounts = (1...700).map { VaultFolder.account($0) }
        let vault = try folder.create()
        let source = VaultAccountDataSource(vault: vault)
        try await source.insertAll(accounts)
        let order = [accounts[650].id, accounts[3].id] + accounts.map(\.id).filter { $0 != accounts[650].id && $0 != accounts[3].id }
        try await source.reorder(order)
        try vault.close()

        let reopened = try Vault.open(at: folder.path, passphrase: Passphrase("correct horse"))
        #expect(reopened.readsThroughReadPath)
        let read = try await VaultAccountDataSource(vault: reopened).fetchAll()
        let inUserOrder = read.map(\.id) == order
        #expect(inUserOrder, "the accounts in the order reorder gave, not the table's")
        let same = read.sorted { $0.issuer < $1.issuer } == accounts.sorted { $0.issuer < $1.issuer }
        #expect(same, "every account as it was written")
        try reopened.close()

        try folder.tamper(
            "UPDATE entry SET ciphertext = zeroblob(length(ciphertext)) WHERE id = ?", arguments: [accounts[690].id.uuidString])
        let damaged = try Vault.open(at: folder.path, passphrase: Passphrase("correct horse"))
        defer { try? damaged.close() }
        await #expect(throws: VaultError.modified(.entries)) { try await VaultAccountDataSource(vault: damaged).fetchAll() }
    }
}
