import HTTPTypes

/// How large a request's body may be, by route, and whether the route needs a device (checked
/// from the headers before the body is read). Only a push carries megabytes, and only a device
/// may push; a key rotation (a key ring and a key wrapped per device) a few dozen kilobytes, and
/// only from a device; account creation and enrolment a few hundred bytes.
enum BodyLimits {
    /// A body that is not a push: account creation, enrolment (a key, an id and a name).
    static let smallBodyBytes = 16 * 1024
    /// A key rotation: a key ring of up to 8 KiB and a wrapped key of up to 512 bytes for each of
    /// up to 64 devices, in base64, with room for the JSON around them.
    static let rotationBodyBytes = 64 * 1024

    /// Whether the route of `method` on `path` checks its bearer token in its own read of the
    /// store rather than before its handler: a pull (no body to guard), which reads the token's
    /// device and its first page in one statement.
    static func checksOwnToken(method: HTTPRequest.Method, path: String) -> Bool {
        method == .get && path == SyncServerRouter.basePath + "/entries"
    }

    /// Whether the route of `method` on `path` checks its bearer token again in its own write: a
    /// push, whose body is read once the token's device is admitted (`AuthenticateDeviceUseCase.admit`:
    /// one the store vouched for lately, without asking it again).
    static func checksTokenInWrite(method: HTTPRequest.Method, path: String) -> Bool {
        method == .post && path == SyncServerRouter.basePath + "/entries"
    }

    /// The body limit of `method` on `path`, and whether the request must carry a device's token.
    static func limit(method: HTTPRequest.Method, path: String, maxBodyBytes: Int) -> (bytes: Int, needsDevice: Bool) {
        if method == .post, path == SyncServerRouter.basePath + "/entries" { return (maxBodyBytes, true) }
        if method == .post, path == SyncServerRouter.basePath + "/keys" { return (min(rotationBodyBytes, maxBodyBytes), true) }
        return (min(smallBodyBytes, maxBodyBytes), false)
    }
}
