import Foundation
import SyncServer

@testable import SyncServerHTTP

/// The key use cases' stubs: fixed answers, recording what they were asked.
extension StubSyncServer {
    struct KeyStateStub: SyncKeyStateUseCase {
        func execute(for caller: AuthenticatedDevice) async throws -> SyncKeyState {
            SyncKeyState(
                keyVersion: 3, keyRing: [1, 2, 3], wrapped: WrappedSyncKey(keyVersion: 3, bytes: [4, 5]),
                deviceKeys: [StubSyncServer.device: [6], StubSyncServer.otherDevice: [7]])
        }
    }

    /// Rotates to version 2 only; any other is a conflict.
    struct RotateStub: RotateSyncKeyUseCase {
        let server: StubSyncServer
        func execute(_ rotation: SyncKeyRotation, for caller: AuthenticatedDevice) async throws {
            guard rotation.keyVersion == 2 else {
                throw SyncServerError.keyConflict("the sync key is at version 2: a rotation makes version 3")
            }
            let wrapped = rotation.wrapped.map { "\($0.key)=\($0.value.count)" }.sorted().joined(separator: ",")
            server.record(
                "rotate to 2 revoking \(rotation.revoke.map(\.description)) ring \(rotation.keyRing?.count ?? 0) wrapped \(wrapped)")
        }
    }

    struct DeviceKeyStub: RegisterDeviceKeyUseCase {
        let server: StubSyncServer
        func execute(_ key: [UInt8], for caller: AuthenticatedDevice) async throws {
            server.record("device key \(key.count) bytes")
        }
    }
}
