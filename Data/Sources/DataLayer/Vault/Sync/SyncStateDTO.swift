import Domain
import Foundation
import SyncRecordCoding

/// What a `sync_entry` row holds: the entry's sync record (deleted ones too), the base (the
/// entry as the server last held it, with its sequence and version) and whether it changed here
/// since.
struct SyncEntryStateDTO: Codable {
    struct BaseDTO: Codable {
        var sequence: Int64
        var version: UInt64
        var record: SyncRecordDTO

        init(_ entry: RemoteEntry) {
            sequence = entry.sequence
            version = entry.version
            record = SyncRecordDTO(entry.record, version: entry.version)
        }

        init(sequence: Int64, version: UInt64, record: SyncRecordDTO) {
            self.sequence = sequence
            self.version = version
            self.record = record
        }

        func toDomain() -> RemoteEntry? {
            record.toDomain().map { RemoteEntry(sequence: sequence, record: $0, version: version) }
        }
    }

    var record: SyncRecordDTO
    var base: BaseDTO?
    var pending: Bool
    /// Absent unless a push was acknowledged since the last pull (and in rows of older builds).
    var pushedOver: BaseDTO?

    init(record: SyncRecordDTO, base: BaseDTO?, pending: Bool, pushedOver: BaseDTO?) {
        self.record = record
        self.base = base
        self.pending = pending
        self.pushedOver = pushedOver
    }

    init(_ state: SyncEntryState) {
        record = SyncRecordDTO(state.record, version: 0)
        base = state.base.map(BaseDTO.init)
        pending = state.pending
        pushedOver = state.pushedOver.map(BaseDTO.init)
    }

    func toDomain() -> SyncEntryState? {
        guard let record = record.toDomain() else { return nil }
        let base = self.base.map { $0.toDomain() }
        let pushedOver = self.pushedOver.map { $0.toDomain() }
        if case .some(nil) = base { return nil }
        if case .some(nil) = pushedOver { return nil }
        return SyncEntryState(record: record, base: base ?? nil, pending: pending, pushedOver: pushedOver ?? nil)
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
    /// The CA file given at init or join (absent: the system's CAs).
    var caFile: String?
    /// The sync key's version (absent: 1), the earlier keys by version (Base64), and this
    /// device's own secret (Base64; absent for a device enrolled before device keys). Gone once left.
    var keyVersion: Int?
    var earlierKeys: [String: String]?
    var deviceSecret: String?
    /// The account's devices this machine knows revoked (absent: none). Gone once left.
    var revokedDevices: [String]?
    /// Set once the server refused this machine as revoked.
    var revoked: Bool?
    /// The server's clock against this machine's at the last sync that could tell (absent: none
    /// measured, and in rows of older builds).
    var clockOffset: ClockOffsetDTO?
    /// Set while nothing waits to be sent or confirmed (absent: something may, and in rows of
    /// older builds).
    var allSent: Bool?
    /// The entries that wait to be sent or confirmed (absent: not kept, as in rows of older
    /// builds: the next round is whole).
    var unsettled: [String]?
    /// Set when the last whole round left no twins to fold (absent: it may have).
    var noTwins: Bool?

    /// `ClockOffset`: seconds, uncertainty, and when it was measured (Unix seconds).
    struct ClockOffsetDTO: Codable, Equatable {
        var seconds: Double
        var uncertainty: Double
        var at: Double
    }

    init(_ state: SyncAccountState) {
        account = state.account.uuidString
        if let membership = state.membership {
            key = Data(membership.code.key.bytes).base64EncodedString()
            server = membership.server.absoluteString
            device = membership.enrolment.deviceID.uuidString
            token = Data(membership.enrolment.token).base64EncodedString()
            caFile = membership.caFile
            keyVersion = membership.keys.version
            earlierKeys =
                membership.keys.earlier.isEmpty
                ? nil
                : Dictionary(
                    uniqueKeysWithValues: membership.keys.earlier.map { (String($0.key), Data($0.value.bytes).base64EncodedString()) })
            deviceSecret = membership.keys.deviceSecret.map { Data($0.bytes).base64EncodedString() }
            revokedDevices = membership.keys.revoked.isEmpty ? nil : membership.keys.revoked.map(\.uuidString).sorted()
        } else {
            device = state.clock.device.uuidString
            left = true
        }
        cursor = state.cursor
        clock = .init(ms: state.clock.milliseconds, c: state.clock.counter, d: state.clock.device.uuidString)
        lastSync = state.lastSync?.timeIntervalSince1970
        conflicts = state.conflicts
        generation = state.generation
        revoked = state.revoked ? true : nil
        clockOffset = state.clockOffset.map {
            ClockOffsetDTO(seconds: $0.seconds, uncertainty: $0.uncertainty, at: $0.measuredAt.timeIntervalSince1970)
        }
        allSent = state.allSent ? true : nil
        unsettled = state.unsettled.map { $0.map(\.uuidString).sorted() }
        noTwins = state.noTwins ? true : nil
    }

    func toDomain() -> SyncAccountState? {
        guard let account = UUID(uuidString: account), let device = UUID(uuidString: device), let clockDevice = UUID(uuidString: clock.d)
        else { return nil }
        var membership: SyncMembership?
        if left != true {
            guard let key, let keyBytes = Data(base64Encoded: key), let syncKey = SyncKey(bytes: Array(keyBytes)),
                let server, let url = URL(string: server), let token, let tokenBytes = Data(base64Encoded: token)
            else { return nil }
            var earlier: [Int: SyncKey] = [:]
            for (version, key) in earlierKeys ?? [:] {
                guard let version = Int(version), let bytes = Data(base64Encoded: key), let key = SyncKey(bytes: Array(bytes)) else {
                    return nil
                }
                earlier[version] = key
            }
            var secret: SyncKey?
            if let deviceSecret {
                guard let bytes = Data(base64Encoded: deviceSecret), let key = SyncKey(bytes: Array(bytes)) else { return nil }
                secret = key
            }
            var revoked: Set<UUID> = []
            for device in revokedDevices ?? [] {
                guard let id = UUID(uuidString: device) else { return nil }
                revoked.insert(id)
            }
            membership = SyncMembership(
                code: SyncCode(account: account, key: syncKey), server: url,
                enrolment: SyncEnrolment(deviceID: device, token: Array(tokenBytes)), caFile: caFile,
                keys: SyncKeyChain(version: keyVersion ?? 1, earlier: earlier, deviceSecret: secret, revoked: revoked))
        }
        return SyncAccountState(
            membership: membership, account: account, cursor: cursor,
            clock: HybridTimestamp(milliseconds: clock.ms, counter: clock.c, device: clockDevice),
            lastSync: lastSync.map(Date.init(timeIntervalSince1970:)), conflicts: max(0, conflicts ?? 0), generation: generation,
            revoked: revoked == true,
            clockOffset: clockOffset.flatMap {
                guard $0.seconds.isFinite, $0.uncertainty.isFinite, $0.uncertainty >= 0, $0.at.isFinite else { return nil }
                return ClockOffset(seconds: $0.seconds, uncertainty: $0.uncertainty, measuredAt: Date(timeIntervalSince1970: $0.at))
            }, allSent: allSent == true,
            unsettled: unsettled.flatMap { ids in
                let parsed = ids.compactMap(UUID.init(uuidString:))
                return parsed.count == ids.count ? Set(parsed) : nil
            }, noTwins: noTwins == true)
    }
}
