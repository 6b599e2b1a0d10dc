import Foundation
import OpenAPIRuntime
import ServiceLifecycle
import SyncServer

/// The handlers of the API document's operations: read the request, call one use case, answer.
/// Refusals are thrown (`SyncServerError`, `Problem`) and become problem documents in
/// `ProblemMiddleware`, so every error has one shape.
struct SyncAPI: APIProtocol {
    let useCases: SyncServerUseCases
    /// The server's release, named in the health answer.
    let version: String
    let audit: AuditLog

    func getHealth(_ input: Operations.GetHealth.Input) async throws -> Operations.GetHealth.Output {
        .ok(.init(body: .json(.init(status: .ok, serverTime: useCases.clock.now(), version: version))))
    }

    func getReadiness(_ input: Operations.GetReadiness.Input) async throws -> Operations.GetReadiness.Output {
        try await useCases.readiness.execute()
        return .ok(.init(body: .json(.init(status: .ok, serverTime: useCases.clock.now(), version: version))))
    }

    func getDocument(_ input: Operations.GetDocument.Input) async throws -> Operations.GetDocument.Output {
        .ok(.init(body: .yaml(HTTPBody(apiDocument))))
    }

    func createAccount(_ input: Operations.CreateAccount.Input) async throws -> Operations.CreateAccount.Output {
        guard case .json(let body) = input.body else { throw Problem.badRequest("a JSON body is required") }
        let account = SyncAccountID(try WireMapping.uuid(body.accountId, field: "accountId"))
        let address = RequestAddress.current ?? "unknown"
        try await useCases.createAccount.execute(
            account: account, authKey: try WireMapping.secret(body.authKey, field: "authKey"), address: address,
            invitation: try body.invitation.map { try WireMapping.secret($0, field: "invitation") })
        audit.accountOpened(account, from: address)
        return .created(.init())
    }

    func enrolDevice(_ input: Operations.EnrolDevice.Input) async throws -> Operations.EnrolDevice.Output {
        guard case .json(let body) = input.body else { throw Problem.badRequest("a JSON body is required") }
        let account = SyncAccountID(try WireMapping.uuid(input.path.accountId, field: "accountId"))
        let address = RequestAddress.current ?? "unknown"
        let enrolment = try await useCases.enrolDevice.execute(
            account: account, authKey: try WireMapping.secret(body.authKey, field: "authKey"), name: body.name,
            deviceKey: try body.deviceKey.map { try WireMapping.bytes($0, field: "deviceKey") }, address: address)
        audit.deviceEnrolled(enrolment.device, of: account, from: address)
        return .created(
            .init(
                body: .json(
                    .init(
                        deviceId: enrolment.device.description,
                        token: Data(enrolment.token.bytes).base64EncodedString()))))
    }

    func listDevices(_ input: Operations.ListDevices.Input) async throws -> Operations.ListDevices.Output {
        let caller = try RequestCaller.required()
        let devices = try await useCases.listDevices.execute(for: caller)
        return .ok(.init(body: .json(.init(devices: devices.map { WireMapping.device($0, caller: caller) }))))
    }

    func revokeDevice(_ input: Operations.RevokeDevice.Input) async throws -> Operations.RevokeDevice.Output {
        let caller = try RequestCaller.required()
        let device = DeviceID(try WireMapping.uuid(input.path.deviceId, field: "deviceId"))
        try await useCases.revokeDevice.execute(device, for: caller)
        audit.deviceRevoked(device, by: caller)
        return .noContent(.init())
    }

    func pullEntries(_ input: Operations.PullEntries.Input) async throws -> Operations.PullEntries.Output {
        // Checked in the pull's first read of the store, not before (`BodyLimits.checksOwnToken`).
        let token = try RequestCaller.requiredToken()
        let (after, limit, wait) = (input.query.after ?? 0, input.query.limit.map(Int.init), Int(input.query.wait ?? 0))
        // A long-poll ends early (an empty page) when the server begins to stop, so a graceful
        // stop never waits out a client's wait; and at once when its client has gone.
        let pull = useCases.pull
        if wait > 0 { SyncServerMetrics.pullsWaiting.increment() }
        defer { if wait > 0 { SyncServerMetrics.pullsWaiting.decrement() } }
        let page = try await cancelWhenGracefulShutdown {
            try await RequestConnection.cancellingWhenClosed {
                try await pull.execute(after: after, limit: limit, waiting: wait, token: token)
            }
        }
        return .ok(
            .init(
                headers: .init(tokensGeneration: page.generation, tokensKeyVersion: page.keyVersion),
                body: .json(
                    .init(
                        entries: page.entries.map(WireMapping.entry), head: page.head, serverTime: page.serverTime,
                        hasMore: page.hasMore))))
    }

    func pullHistory(_ input: Operations.PullHistory.Input) async throws -> Operations.PullHistory.Output {
        let caller = try RequestCaller.required()
        let page = try await useCases.history.execute(after: input.query.after ?? 0, limit: input.query.limit.map(Int.init), for: caller)
        return .ok(.init(body: .json(.init(entries: page.entries.map(WireMapping.earlier), hasMore: page.hasMore))))
    }

    func pushEntries(_ input: Operations.PushEntries.Input) async throws -> Operations.PushEntries.Output {
        // Admitted before its body was read; the token is checked again in the push's write.
        let caller = try RequestCaller.required()
        let token = try RequestCaller.requiredToken()
        guard case .json(let body) = input.body else { throw Problem.badRequest("a JSON body is required") }
        let changes = try body.changes.map(WireMapping.change)
        let results: [PushResult]
        do {
            results = try await useCases.push.execute(changes, token: token)
        } catch SyncServerError.quotaExceeded(let quota) {
            audit.quotaRefused(caller)
            throw SyncServerError.quotaExceeded(quota)
        }
        SyncServerMetrics.record(results)
        return .ok(.init(body: .json(.init(results: zip(results, changes).map { WireMapping.result($0, for: $1) }))))
    }
}
