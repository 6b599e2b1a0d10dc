import Foundation
import OpenAPIRuntime
import SyncServer

/// The handlers of the sync key's operations: every byte but the auth key is opaque here.
extension SyncAPI {
    func getKeys(_ input: Operations.GetKeys.Input) async throws -> Operations.GetKeys.Output {
        let caller = try RequestCaller.required()
        let state = try await useCases.keys.state.execute(for: caller)
        let deviceKeys = state.deviceKeys.sorted { $0.key.description < $1.key.description }.map {
            Components.Schemas.KeyState.DeviceKeysPayloadPayload(
                deviceId: $0.key.description, deviceKey: Data($0.value).base64EncodedString())
        }
        return .ok(
            .init(
                body: .json(
                    .init(
                        keyVersion: state.keyVersion, keyRing: state.keyRing.map { Data($0).base64EncodedString() },
                        wrapped: state.wrapped.map { Data($0.bytes).base64EncodedString() }, deviceKeys: deviceKeys))))
    }

    func rotateKey(_ input: Operations.RotateKey.Input) async throws -> Operations.RotateKey.Output {
        let caller = try RequestCaller.required()
        guard case .json(let body) = input.body else { throw Problem.badRequest("a JSON body is required") }
        var wrapped: [DeviceID: [UInt8]] = [:]
        for key in body.wrapped {
            let device = DeviceID(try WireMapping.uuid(key.deviceId, field: "wrapped.deviceId"))
            guard wrapped[device] == nil else { throw SyncServerError.keyConflict("a key is wrapped once for each device") }
            wrapped[device] = try WireMapping.bytes(key.key, field: "wrapped.key")
        }
        let rotation = SyncKeyRotation(
            keyVersion: body.keyVersion, authKey: try WireMapping.secret(body.authKey, field: "authKey"),
            keyRing: try WireMapping.bytes(body.keyRing, field: "keyRing"),
            revoke: try body.revoke.map { DeviceID(try WireMapping.uuid($0, field: "revoke")) }, wrapped: wrapped)
        try await useCases.keys.rotate.execute(rotation, for: caller)
        return .noContent(.init())
    }

    func registerDeviceKey(_ input: Operations.RegisterDeviceKey.Input) async throws -> Operations.RegisterDeviceKey.Output {
        let caller = try RequestCaller.required()
        guard case .json(let body) = input.body else { throw Problem.badRequest("a JSON body is required") }
        try await useCases.keys.registerDeviceKey.execute(try WireMapping.bytes(body.deviceKey, field: "deviceKey"), for: caller)
        return .noContent(.init())
    }
}
