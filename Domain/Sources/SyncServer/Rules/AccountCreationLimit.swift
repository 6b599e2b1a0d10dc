/// Opening accounts is rate-limited per address and in all: an account costs the server storage,
/// and no client needs more than a few (one per sync account it opens).
public enum AccountCreationLimit {
    /// Refuses when either count of recent creations (this one included) is over its limit.
    public static func check(_ creations: AccountCreations, limits: SyncLimits) throws(SyncServerError) {
        guard creations.fromAddress <= limits.accountsPerAddress, creations.inAll <= limits.accountsInAll else {
            throw .tooManyAccounts(retryAfterSeconds: Int(limits.accountWindow))
        }
    }
}
