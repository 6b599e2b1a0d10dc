import SyncServer

/// The device a request was authenticated as, for the handler of that request only.
enum RequestCaller {
    @TaskLocal static var current: AuthenticatedDevice?

    /// The caller, or "unauthorized" when the request carried no valid token.
    static func required() throws -> AuthenticatedDevice {
        guard let current else { throw Problem.unauthorized }
        return current
    }

    /// The bearer token of a request whose route checks it in its own read or write of the store
    /// (a pull: `BodyLimits.checksOwnToken`; a push: `checksTokenInWrite`), not checked yet
    /// (a push's device only admitted): only that route's handler reads it.
    @TaskLocal static var unchecked: SyncSecret?

    /// That token, or "unauthorized" when the request carried none.
    static func requiredToken() throws -> SyncSecret {
        guard let unchecked else { throw Problem.unauthorized }
        return unchecked
    }
}
