/// Enrolment is rate-limited per account and per address: guessing an auth key is hopeless
/// (256 bits), but the limit keeps a stolen sync code from enrolling devices in bulk and keeps
/// the server's work bounded.
public enum EnrolmentLimit {
    /// Refuses when either count of recent attempts (this one included) is over its limit.
    public static func check(
        accountAttempts: Int, addressAttempts: Int, limits: SyncLimits
    ) throws(SyncServerError) {
        guard accountAttempts <= limits.enrolmentsPerAccount, addressAttempts <= limits.enrolmentsPerAddress else {
            throw .rateLimited(retryAfterSeconds: Int(limits.enrolmentWindow))
        }
    }
}
