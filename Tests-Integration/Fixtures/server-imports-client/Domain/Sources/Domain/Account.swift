import Foundation
import SyncServer

/// Breaks rule 14 the other way: the client's Domain importing the server's rules.
struct Account {}
