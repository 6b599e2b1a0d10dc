// Fixture: Domain reading the system clock and randomness breaks rule 8.
// Only code counts: Date() in a comment is fine.
import Foundation

struct Expiry {
    let created = Date()
    let salt = UInt8.random(in: 0...255)
    let inferred: Date = .init()
    let later = Date(timeIntervalSinceNow: 60)
}
