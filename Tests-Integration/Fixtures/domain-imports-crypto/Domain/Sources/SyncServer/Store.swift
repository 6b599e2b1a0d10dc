import Foundation
import PostgresNIO

/// Breaks rule 3 in the server's Domain target: SQL belongs in Data.
struct Store {}
