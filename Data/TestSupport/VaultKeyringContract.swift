import DataLayer
import Foundation
import Testing

/// A keyring as a contract subject: the keyring, and a way to let `seconds` pass for it.
public protocol VaultKeyringSubject: Sendable {
    var keyring: any VaultKeyring { get }
    /// Lets at least `seconds` pass on the keyring's clock.
    func wait(seconds: Int) async throws
}

/// The behaviour every `VaultKeyring` must have for `VaultKeyCache` to be right: run against
/// `InMemoryKeyring` and against `KernelKeyring` in Data's tests, so the fake cannot drift from
/// the kernel. Each check uses names of its own under `prefix`, and removes what it kept.
public enum VaultKeyringContract {
    public static let checks: [(String, @Sendable (any VaultKeyringSubject, String) async throws -> Void)] = [
        ("a kept payload reads back, and keeping again replaces it", keepsAndReplaces),
        ("a removed payload is gone at once, and removing twice says so", removes),
        ("names are apart: one name never reads another's payload", namesApart),
        ("a payload is gone once its timeout passed", expires),
    ]

    public static var names: [String] { checks.map(\.0) }

    public static func check(named name: String) -> @Sendable (any VaultKeyringSubject, String) async throws -> Void {
        if let clause = checks.first(where: { $0.0 == name }) { return clause.1 }
        return { @Sendable _, _ in Issue.record("no clause \(name)") }
    }

    public static func keepsAndReplaces(_ subject: any VaultKeyringSubject, prefix: String) async throws {
        let keyring = subject.keyring
        defer { _ = try? keyring.remove(named: prefix + "a") }
        #expect(try keyring.payload(named: prefix + "a") == nil)
        try keyring.store(Array(0..<57), named: prefix + "a", seconds: 60)
        #expect(try keyring.payload(named: prefix + "a") == Array(0..<57))
        try keyring.store([9, 9, 9], named: prefix + "a", seconds: 60)
        #expect(try keyring.payload(named: prefix + "a") == [9, 9, 9])
    }

    public static func removes(_ subject: any VaultKeyringSubject, prefix: String) async throws {
        let keyring = subject.keyring
        try keyring.store([1, 2, 3], named: prefix + "b", seconds: 60)
        #expect(try keyring.remove(named: prefix + "b"))
        #expect(try keyring.payload(named: prefix + "b") == nil)
        #expect(try !keyring.remove(named: prefix + "b"))
    }

    public static func namesApart(_ subject: any VaultKeyringSubject, prefix: String) async throws {
        let keyring = subject.keyring
        defer {
            _ = try? keyring.remove(named: prefix + "c")
            _ = try? keyring.remove(named: prefix + "d")
        }
        try keyring.store([1], named: prefix + "c", seconds: 60)
        try keyring.store([2], named: prefix + "d", seconds: 60)
        #expect(try keyring.payload(named: prefix + "c") == [1])
        #expect(try keyring.payload(named: prefix + "d") == [2])
        #expect(try keyring.remove(named: prefix + "c"))
        #expect(try keyring.payload(named: prefix + "d") == [2])
        #expect(try keyring.payload(named: prefix + "e") == nil)
    }

    public static func expires(_ subject: any VaultKeyringSubject, prefix: String) async throws {
        let keyring = subject.keyring
        defer { _ = try? keyring.remove(named: prefix + "f") }
        try keyring.store([7], named: prefix + "f", seconds: 1)
        // An hour: the wait may resume late on a loaded machine (a pool held by other tests),
        // and "g" must still be there however late it is.
        try keyring.store([8], named: prefix + "g", seconds: 3600)
        defer { _ = try? keyring.remove(named: prefix + "g") }
        try await subject.wait(seconds: 2)
        #expect(try keyring.payload(named: prefix + "f") == nil)
        #expect(try keyring.payload(named: prefix + "g") == [8])
    }
}
