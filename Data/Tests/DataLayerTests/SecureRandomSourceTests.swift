import DataLayer
import Foundation
import Testing

/// The system randomness behind ids, salts and nonces.
@Suite("Secure random source")
struct SecureRandomSourceTests {
    @Test("any count of bytes, in draws of eight", arguments: [0, 1, 7, 8, 9, 16, 33])
    func counts(count: Int) {
        #expect(SecureRandomSource().bytes(count: count).count == count)
    }

    @Test("draws differ and use every bit: 1 000 ids are distinct v4 UUIDs")
    func distinct() {
        let source = SecureRandomSource()
        let ids = (0..<1_000).map { _ in source.uuid() }
        #expect(Set(ids).count == 1_000)
        #expect(ids.allSatisfy { $0.uuidString.dropFirst(14).first == "4" })
        let ored = (0..<64).reduce(into: [UInt8](repeating: 0, count: 16)) { bits, _ in
            for (index, byte) in source.bytes(count: 16).enumerated() { bits[index] |= byte }
        }
        #expect(ored == [UInt8](repeating: 0xFF, count: 16))
    }
}
