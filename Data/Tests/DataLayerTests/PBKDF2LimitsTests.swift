import Domain
import Foundation
import Testing

@testable import DataLayer

/// Password-based exports name their own PBKDF2 cost: a hostile file must not make the password
/// check take seconds before it can fail.
@Suite("PBKDF2 limits of imports")
struct PBKDF2LimitsTests {
    /// An andOTP encrypted backup's header and body with `rounds` (the ciphertext is garbage).
    static func andOTP(rounds: UInt32) -> Data {
        let header: [UInt8] = [
            UInt8(rounds >> 24), UInt8(truncatingIfNeeded: rounds >> 16), UInt8(truncatingIfNeeded: rounds >> 8),
            UInt8(truncatingIfNeeded: rounds),
        ]
        return Data(header + [UInt8](repeating: 7, count: 12) + [UInt8](repeating: 9, count: 12) + [UInt8](repeating: 1, count: 48))
    }

    @Test(
        "an andOTP backup asking for 10 000 000 rounds is refused at once, saying why; a usual one is tried (and the wrong password said)")
    func andOTPRounds() throws {
        let started = ContinuousClock.now
        #expect {
            _ = try InteropCodec().decode(Self.andOTP(rounds: 10_000_000), as: .andOTP, password: "pw")
        } throws: { error in
            guard case ImportError.unsupported(.andOTP, let detail) = error else { return false }
            return detail.contains("10000000 PBKDF2 rounds")
        }
        #expect(ContinuousClock.now - started < .seconds(1), "refused before any key derivation")
        #expect(throws: ImportError.wrongPassword(.andOTP)) {
            _ = try InteropCodec().decode(Self.andOTP(rounds: 1_000), as: .andOTP, password: "pw")
        }
    }
}
