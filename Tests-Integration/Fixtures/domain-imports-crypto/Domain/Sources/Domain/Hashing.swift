// Fixture: Domain importing a crypto library breaks rule 3.
import Crypto
import Foundation

struct Hashing {}
