/// Wakes long-polls when an account's changes move on. One instance signals its own waiters at
/// once; waiters re-read the account's head at least every `SyncLimits.headCheckInterval`, so a
/// push through another instance on the same database is seen within that interval too.
public protocol ChangeNotifier: Sendable {
    /// Called after a push stored changes of `account` (after its transaction committed).
    func changed(_ account: SyncAccountID) async
    /// Returns when `account` may have changed, after `seconds` at the latest, or at once when
    /// the calling task is cancelled (a request that ends, a server that stops).
    func wait(for account: SyncAccountID, atMost seconds: Double) async
}
