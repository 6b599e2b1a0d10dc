import DataLayer
import SyncServer

/// Breaks rule 14: a server target reaching into the client's Data target.
struct Store {}
