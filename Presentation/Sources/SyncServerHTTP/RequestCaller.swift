import SyncServer

/// The device a request was authenticated as, for the handler of that request only.
enum RequestCaller {
    @TaskLocal static var current: AuthenticatedDevice?

    /// The caller, or "unauthorized" when the request carried no valid token.
    static func required() throws -> AuthenticatedDevice {
        guard let current else { throw Problem.unauthorized }
        return current
    }
}
