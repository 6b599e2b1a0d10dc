import Domain
import Foundation

/// The account's devices, as this enrolled machine sees them.
extension RemoteSyncDataSource: SyncDevicesRemote {
    public func devices() async throws(SyncError) -> [EnrolledDevice] {
        let output: Operations.ListDevices.Output
        do { output = try await api.listDevices() } catch { throw Self.transportError(error) }
        switch output {
        case .ok(let ok):
            guard case .json(let list) = ok.body else { throw .incompatible }
            return try list.devices.map { device throws(SyncError) in
                guard let id = UUID(uuidString: device.id) else { throw .incompatible }
                return EnrolledDevice(
                    id: id, name: device.name, enrolledAt: device.enrolledAt, revokedAt: device.revokedAt, isThisDevice: device.isCaller,
                    lastSeenAt: device.lastSeenAt)
            }
        case .unauthorized(let problem): throw Self.refusal(problem)
        case .tooManyRequests(let problem): throw Self.rateLimited(problem)
        case .default(let status, _): throw Self.error(status: status)
        }
    }

    public func revoke(_ device: UUID) async throws(SyncError) {
        let output: Operations.RevokeDevice.Output
        do {
            output = try await api.revokeDevice(path: .init(deviceId: device.uuidString.lowercased()))
        } catch { throw Self.transportError(error) }
        switch output {
        case .noContent: return
        case .notFound: throw .unknownDevice
        case .unauthorized(let problem): throw Self.refusal(problem)
        case .badRequest: throw .incompatible
        case .tooManyRequests(let problem): throw Self.rateLimited(problem)
        case .default(let status, _): throw Self.error(status: status)
        }
    }
}
