import Foundation
import HTTPTypes
import SyncServer

/// An error answer: an HTTP status and the RFC 9457 problem document's title and detail. The
/// detail never holds a secret, a token or a payload: only what the client sent wrong.
struct Problem: Error, Equatable, Sendable {
    let status: HTTPResponse.Status
    let title: String
    let detail: String?
    var retryAfterSeconds: Int? = nil
    /// The problem type, when the status alone does not say enough (see the document's Problem).
    var type: String? = nil

    /// The type of a revoked device's 401.
    static let deviceRevokedType = "urn:tokens:sync:device-revoked"
    /// The problem type of a push past the account's storage quota (413).
    static let quotaExceededType = "urn:tokens:sync:quota-exceeded"
    static let invitationRequiredType = "urn:tokens:sync:invitation-required"
    static let invitationRefusedType = "urn:tokens:sync:invitation-refused"
    static let signupClosedType = "urn:tokens:sync:signup-closed"

    static func badRequest(_ detail: String) -> Problem {
        Problem(status: .badRequest, title: "Bad request", detail: detail)
    }

    static let unauthorized = Problem(
        status: .unauthorized, title: "Unauthorized", detail: "a valid device token (or auth key) is required")

    static let internalError = Problem(
        status: .internalServerError, title: "Internal error", detail: "the server could not answer; try again later")

    /// The status and words for each of the rules' refusals.
    init(_ error: SyncServerError) {
        switch error {
        case .unauthorized: self = .unauthorized
        case .deviceRevoked:
            self.init(status: .unauthorized, title: "Unauthorized", detail: "this device was revoked; join the sync account again")
            type = Self.deviceRevokedType
        case .deviceNotFound: self.init(status: .notFound, title: "Not found", detail: "no such device in this account")
        case .accountExists: self.init(status: .conflict, title: "Conflict", detail: "a sync account with this id exists")
        case .invitationRequired:
            self.init(
                status: .forbidden, title: "Forbidden", detail: "this server opens sync accounts only with an invitation from its operator")
            type = Self.invitationRequiredType
        case .invitationRefused:
            self.init(status: .forbidden, title: "Forbidden", detail: "the invitation is unknown, expired or used for another account")
            type = Self.invitationRefusedType
        case .signupClosed:
            self.init(status: .forbidden, title: "Forbidden", detail: "this server opens no new sync accounts")
            type = Self.signupClosedType
        case .tooManyDevices(let limit):
            self.init(status: .conflict, title: "Conflict", detail: "the account has \(limit) devices; revoke one first")
        case .rateLimited(let seconds):
            self.init(
                status: .tooManyRequests, title: "Too many requests", detail: "too many enrolments lately",
                retryAfterSeconds: seconds)
        case .tooManyAccounts(let seconds):
            self.init(
                status: .tooManyRequests, title: "Too many requests", detail: "too many sync accounts opened lately",
                retryAfterSeconds: seconds)
        case .tooManyWaiting(let limit, let seconds):
            self.init(
                status: .tooManyRequests, title: "Too many requests", detail: "this device has \(limit) pulls waiting already",
                retryAfterSeconds: seconds)
        case .cursorExpired(let horizon):
            self.init(
                status: .gone, title: "Gone",
                detail: "changes before sequence \(horizon) were forgotten; pull again from 0 and merge")
        // Both limits are in the document (maxItems, maxLength): a request past them breaks the
        // schema like any other, so it is a 400; 413 stays for a body past the byte limit.
        case .tooManyChanges(let limit): self = .badRequest("at most \(limit) changes in one push")
        case .payloadTooLarge(let limit): self = .badRequest("a ciphertext has at most \(limit) bytes")
        case .invalid(let detail): self = .badRequest(detail)
        case .keyConflict(let detail): self.init(status: .conflict, title: "Conflict", detail: detail)
        case .quotaExceeded(let quota):
            self.init(
                status: .contentTooLarge, title: "Content too large",
                detail:
                    "the sync account may hold \(quota.entries) entries and \(quota.bytes / (1024 * 1024)) MiB: delete some, or ask the server's operator"
            )
            type = Self.quotaExceededType
        case .unavailable(let outage):
            let detail =
                switch outage {
                case .unreachable: "the server's database cannot be reached; nothing was stored; try again shortly"
                case .full: "the server's database is full; nothing was stored"
                case .readOnly: "the server's database accepts no writes; nothing was stored"
                }
            self.init(
                status: .serviceUnavailable, title: "Service unavailable", detail: detail, retryAfterSeconds: outage.retryAfterSeconds)
        }
    }

    init(status: HTTPResponse.Status, title: String, detail: String?, retryAfterSeconds: Int? = nil) {
        self.status = status
        self.title = title
        self.detail = detail
        self.retryAfterSeconds = retryAfterSeconds
    }
}

extension Problem {
    /// The answer's fields: the problem media type, and `Retry-After` when there is one.
    var headerFields: HTTPFields {
        var fields: HTTPFields = [.contentType: "application/problem+json"]
        if let seconds = retryAfterSeconds { fields[.retryAfter] = String(seconds) }
        return fields
    }

    /// The RFC 9457 document, as JSON.
    var json: Foundation.Data {
        let document = ProblemDocument(type: type, title: title, status: Int(status.code), detail: detail)
        return (try? JSONEncoder().encode(document)) ?? Foundation.Data("{}".utf8)
    }
}
