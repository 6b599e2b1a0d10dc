import Domain
import Foundation
import OpenAPIRuntime

/// Domain's `SyncAccountRemote` through the generated client: opens the sync account and enrols
/// machines with the auth key the sync key derives (SyncKeys); no bearer token yet.
public struct RemoteSyncAccountDataSource: SyncAccountRemote {
    private let api: any APIProtocol
    private let keys: SyncKeys

    init(api: any APIProtocol, keys: SyncKeys) {
        self.api = api
        self.keys = keys
    }

    /// The account of `keys` at `server` (its base URL, e.g. https://sync.example/v1).
    public static func make(server: URL, keys: SyncKeys, transport: any ClientTransport) -> RemoteSyncAccountDataSource {
        RemoteSyncAccountDataSource(api: Client(serverURL: server, configuration: .wire, transport: transport), keys: keys)
    }

    private var accountID: String { keys.account.uuidString.lowercased() }
    private var authKey: String { Data(keys.authKey).base64EncodedString() }

    public func createAccount(invitation: SyncInvitation?) async throws(SyncError) {
        let output: Operations.CreateAccount.Output
        do {
            output = try await api.createAccount(
                body: .json(
                    .init(accountId: accountID, authKey: authKey, invitation: invitation.map { Data($0.bytes).base64EncodedString() })))
        } catch { throw RemoteSyncDataSource.transportError(error) }
        switch output {
        case .created: return
        case .conflict: throw .accountExists
        case .forbidden(let problem): throw Self.signupRefusal(problem)
        case .badRequest, .contentTooLarge: throw .incompatible
        case .tooManyRequests(let problem): throw RemoteSyncDataSource.rateLimited(problem)
        case .default(let status, _): throw RemoteSyncDataSource.error(status: status)
        }
    }

    /// A 403 to a new account: the problem's type says which refusal (see the document's Problem).
    static func signupRefusal(_ problem: Components.Responses.Problem) -> SyncError {
        guard case .applicationProblemJson(let document) = problem.body else { return .incompatible }
        switch document._type {
        case "urn:tokens:sync:invitation-required": return .invitationRequired
        case "urn:tokens:sync:invitation-refused": return .invitationRefused
        case "urn:tokens:sync:signup-closed": return .signupClosed
        default: return .incompatible
        }
    }

    public func enrol(deviceName: String, deviceKey: [UInt8]) async throws(SyncError) -> SyncEnrolment {
        let output: Operations.EnrolDevice.Output
        do {
            output = try await api.enrolDevice(
                path: .init(accountId: accountID),
                body: .json(.init(authKey: authKey, name: deviceName, deviceKey: Data(deviceKey).base64EncodedString())))
        } catch { throw RemoteSyncDataSource.transportError(error) }
        switch output {
        case .created(let created):
            guard case .json(let enrolment) = created.body, let device = UUID(uuidString: enrolment.deviceId),
                let token = Data(base64Encoded: enrolment.token), token.count == 32
            else { throw .incompatible }
            return SyncEnrolment(deviceID: device, token: Array(token))
        case .unauthorized: throw .unauthorized
        case .badRequest, .conflict, .contentTooLarge: throw .incompatible
        case .tooManyRequests(let problem): throw RemoteSyncDataSource.rateLimited(problem)
        case .default(let status, _): throw RemoteSyncDataSource.error(status: status)
        }
    }
}
