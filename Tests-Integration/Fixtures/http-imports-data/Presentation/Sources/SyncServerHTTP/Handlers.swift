import Hummingbird
import SyncServerData

/// Breaks rule 15: the HTTP interface reaching a store instead of the use cases.
struct Handlers {}
