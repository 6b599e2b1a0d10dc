import Domain
import Foundation

/// The account's sync key on the server, as this enrolled machine reaches it: opaque bytes
/// both ways (`SyncKeySealer` makes and opens them); the new key's auth key derived here.
extension RemoteSyncDataSource: SyncKeysRemote {
    public func keyState() async throws(SyncError) -> RemoteKeyState {
        let output: Operations.GetKeys.Output
        do { output = try await api.getKeys() } catch { throw Self.transportError(error) }
        switch output {
        case .ok(let ok):
            guard case .json(let state) = ok.body else { throw .incompatible }
            var deviceKeys: [UUID: [UInt8]] = [:]
            for key in state.deviceKeys {
                guard let id = UUID(uuidString: key.deviceId), let bytes = Data(base64Encoded: key.deviceKey) else { throw .incompatible }
                deviceKeys[id] = Array(bytes)
            }
            return RemoteKeyState(
                version: Int(state.keyVersion), keyRing: state.keyRing.flatMap { Data(base64Encoded: $0) }.map { Array($0) },
                wrapped: state.wrapped.flatMap { Data(base64Encoded: $0) }.map { Array($0) }, deviceKeys: deviceKeys)
        case .unauthorized(let problem): throw Self.refusal(problem)
        case .tooManyRequests(let problem): throw Self.rateLimited(problem)
        case .default(let status, _): throw Self.error(status: status)
        }
    }

    public func rotate(_ rotation: RemoteKeyRotation) async throws(SyncError) {
        let authKey = SyncKeys(key: rotation.code.key, account: rotation.code.account, version: rotation.version).authKey
        let body = Components.Schemas.KeyRotation(
            keyVersion: Int32(rotation.version), authKey: Data(authKey).base64EncodedString(),
            keyRing: Data(rotation.keyRing).base64EncodedString(), revoke: rotation.revoke.map { $0.uuidString.lowercased() },
            wrapped: rotation.wrapped.sorted { $0.key.uuidString < $1.key.uuidString }.map {
                .init(deviceId: $0.key.uuidString.lowercased(), key: Data($0.value).base64EncodedString())
            })
        let output: Operations.RotateKey.Output
        do { output = try await api.rotateKey(body: .json(body)) } catch { throw Self.transportError(error) }
        switch output {
        case .noContent: return
        case .conflict: throw .keyConflict
        case .notFound: throw .unknownDevice
        case .unauthorized(let problem): throw Self.refusal(problem)
        case .badRequest, .contentTooLarge: throw .incompatible
        case .tooManyRequests(let problem): throw Self.rateLimited(problem)
        case .default(let status, _): throw Self.error(status: status)
        }
    }

    public func registerDeviceKey(_ key: [UInt8]) async throws(SyncError) {
        let output: Operations.RegisterDeviceKey.Output
        do {
            output = try await api.registerDeviceKey(body: .json(.init(deviceKey: Data(key).base64EncodedString())))
        } catch { throw Self.transportError(error) }
        switch output {
        case .noContent: return
        case .conflict: throw .keyConflict
        case .unauthorized(let problem): throw Self.refusal(problem)
        case .badRequest, .contentTooLarge: throw .incompatible
        case .tooManyRequests(let problem): throw Self.rateLimited(problem)
        case .default(let status, _): throw Self.error(status: status)
        }
    }
}
