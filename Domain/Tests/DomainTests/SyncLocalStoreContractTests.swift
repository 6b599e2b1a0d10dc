import Domain
import DomainTestSupport
import Foundation
import Testing

/// The in-memory local store keeps the contract the vault's store keeps (Data runs the same).
@Suite("SyncLocalStore contract: in memory")
struct SyncLocalStoreContractTests {
    struct Subject: SyncLocalStoreSubject {
        let fake = InMemorySyncLocalStore()
        var store: any SyncLocalStore { fake }

        func add(_ number: Int) async throws -> UUID {
            let id = UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", number))!
            await fake.change(id) { $0 = .sample(id, secret: [UInt8(number), 1, 2, 3, 4]) }
            return id
        }

        func edit(_ id: UUID, note: String) async throws {
            await fake.change(id) { $0 = $0?.noted(note, at: 5_000) }
        }

        func delete(_ id: UUID) async throws {
            await fake.change(id) { $0 = $0?.deleted(at: 6_000) }
        }
    }

    @Test("InMemorySyncLocalStore keeps the contract", arguments: SyncLocalStoreContract.names)
    func contract(clause: String) async throws {
        try await SyncLocalStoreContract.check(named: clause)(Subject())
    }
}
