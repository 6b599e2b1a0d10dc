import Domain
import SyncRecordCoding
import Foundation

/// What a `sync_entry` row holds: the entry's sync record (deleted ones too), the base (the
/// entry as the server last held it, with its sequence and version) and whether it changed here
/// since.
struct SyncEntryStateDTO: Codable {
    struct BaseDTO: Codable {
        var sequence: Int64
        var version: UInt64
        var record: SyncRecordDTO
    }

    var record: SyncRecordDTO
    var base: BaseDTO?
    var pending: Bool

    init(_ state: SyncEntryState) {
        record = SyncRecordDTO(state.record, version: 0)
        base = state.base.map { BaseDTO(sequence: $0.sequence, version: $0.version, record: SyncRecordDTO($0.record, version: $0.version)) }
        pending = state.pending
    }

    func toDomain() -> SyncEntryState? {
        guard let record = record.toDomain() else { return nil }
        var remote: RemoteEntry?
        if let base {
            guard let baseRecord = base.record.toDomain() else { return nil }
            remote = RemoteEntry(sequence: base.sequence, record: baseRecord, version: base.version)
        }
        return SyncEntryState(record: record, base: remote, pending: pending)
    }
}

/// What the `sync_account` row holds: the membership (sync code, server, enrolment), the
/// cursor, this device's hybrid clock and when the last sync completed. After leaving, the
/// secrets (key, token) are gone and `left` is set; the account, device and clock stay.
struct SyncAccountStateDTO: Codable {
    var account: String
    /// The sync key, Base64; absent once left.
    var key: String?
    var server: String?
    var device: String
    /// The bearer token, Base64; absent once left.
    var token: String?
    var cursor: Int64
    var clock: SyncRecordDTO.StampDTO
    var lastSync: Double?
    var conflicts: Int?
    var generation: String?
    var left: Bool?

    init(_ state: SyncAccountState) {
        account = state.account.uuidString
        if let membership = state.membership {
            key = Data(membership.code.key.bytes).base64EncodedString()
            server = membership.server.absoluteString
            device = membership.enrolment.deviceID.uuidString
            token = Data(membership.enrolment.token).base64EncodedString()
        } else {
            device = state.clock.device.uuidString
            left = true
        }
        cursor = state.cursor
        clock = .init(ms: state.clock.milliseconds, c: state.clock.counter, d: state.clock.device.uuidString)
        lastSync = state.lastSync?.timeIntervalSince1970
        conflicts = state.conflicts
        generation = state.generation
    }

    func toDomain() -> SyncAccountState? {
        guard let account = UUID(uuidString: account), let device = UUID(uuidString: device), let clockDevice = UUID(uuidString: clock.d)
        else { return nil }
        var membership: SyncMembership?
        if left != true {
            guard let key, let keyBytes = Data(base64Encoded: key), let syncKey = SyncKey(bytes: Array(keyBytes)),
                let server, let url = URL(string: server), let token, let tokenBytes = Data(base64Encoded: token)
            else { return nil }
            membership = SyncMembership(
                code: SyncCode(account: account, key: syncKey), server: url,
                enrolment: SyncEnrolment(deviceID: device, token: Array(tokenBytes)))
        }
        return SyncAccountState(
            membership: membership, account: account, cursor: cursor,
            clock: HybridTimestamp(milliseconds: clock.ms, counter: clock.c, device: clockDevice),
            lastSync: lastSync.map(Date.init(timeIntervalSince1970:)), conflicts: max(0, conflicts ?? 0), generation: generation)
    }
}
