import Foundation
import SyncServer

/// The wire types (generated from the API document) read into the rules' types, and back. Every
/// text from the network is checked here: a malformed id or base64 is a 400, never a crash.
enum WireMapping {
    static func uuid(_ text: String, field: String) throws -> UUID {
        guard let uuid = UUID(uuidString: text) else { throw Problem.badRequest("\(field) is not a UUID") }
        return uuid
    }

    static func bytes(_ text: String, field: String) throws -> [UInt8] {
        guard text.utf8.count <= 32 * 1024, let data = Data(base64Encoded: text) else {
            throw Problem.badRequest("\(field) is not base64")
        }
        return Array(data)
    }

    static func secret(_ text: String, field: String) throws -> SyncSecret {
        guard let secret = SyncSecret(bytes: try bytes(text, field: field)) else {
            throw Problem.badRequest("\(field) must be 32 bytes in base64")
        }
        return secret
    }

    static func change(_ wire: Components.Schemas.Change) throws -> EntryChange {
        EntryChange(
            id: EntryID(try uuid(wire.id, field: "id")), basedOn: wire.basedOn,
            payload: EntryPayload(
                isDeleted: wire.deleted, keyVersion: wire.keyVersion, nonce: try bytes(wire.nonce, field: "nonce"),
                ciphertext: try bytes(wire.ciphertext, field: "ciphertext")))
    }

    static func entry(_ entry: SyncEntry) -> Components.Schemas.Entry {
        Components.Schemas.Entry(
            id: entry.id.description, sequence: entry.sequence, deleted: entry.payload.isDeleted,
            keyVersion: entry.payload.keyVersion, nonce: Data(entry.payload.nonce).base64EncodedString(),
            ciphertext: Data(entry.payload.ciphertext).base64EncodedString(), changedAt: entry.changedAt)
    }

    static func earlier(_ earlier: EarlierEntry) -> Components.Schemas.EarlierEntry {
        let entry = earlier.entry
        return Components.Schemas.EarlierEntry(
            id: entry.id.description, sequence: entry.sequence, keyVersion: entry.payload.keyVersion,
            nonce: Data(entry.payload.nonce).base64EncodedString(), ciphertext: Data(entry.payload.ciphertext).base64EncodedString(),
            changedAt: entry.changedAt, replacedAt: earlier.replacedAt)
    }

    static func result(_ result: PushResult, for change: EntryChange) -> Components.Schemas.PushResult {
        switch result {
        case .applied(let sequence): .init(id: change.id.description, status: .applied, sequence: sequence)
        case .conflict(let current): .init(id: change.id.description, status: .conflict, current: entry(current))
        }
    }

    static func device(_ device: SyncDevice, caller: AuthenticatedDevice) -> Components.Schemas.Device {
        Components.Schemas.Device(
            id: device.id.description, name: device.name, enrolledAt: device.enrolledAt, revokedAt: device.revokedAt,
            lastSeenAt: device.lastSeenAt, isCaller: device.id == caller.device)
    }
}
