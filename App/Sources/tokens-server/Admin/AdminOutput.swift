import AppConfiguration
import CommandLineKit
import Foundation
import SyncServer

/// What `tokens-server admin` prints: a table for people (names escaped for the terminal:
/// devices name themselves), or one JSON document for scripts (`--json`), times in ISO 8601.
struct AdminOutput {
    let json: Bool
    let quota: StorageQuota

    func accounts(_ accounts: [AccountSummary]) throws -> String {
        if json { return try encode(AccountsDocument(quota: QuotaDTO(quota), accounts: accounts.map(AccountDTO.init))) }
        let rows = accounts.map { account in
            [
                AdminReference.short(account.id.uuid), Self.time(account.createdAt),
                "\(account.activeDevices)" + (account.revokedDevices > 0 ? " (+\(account.revokedDevices) revoked)" : ""),
                "\(account.usage.entries)", Self.bytes(account.usage.bytes), account.lastChange.map(Self.time) ?? "never",
                account.lastSeen.map(Self.time) ?? "never", account.quota.isServerDefault ? "server's" : describe(account.quota),
            ]
        }
        let header = ["ACCOUNT", "CREATED", "DEVICES", "ENTRIES", "BYTES", "LAST CHANGE", "LAST SEEN", "QUOTA"]
        return TextTable.render([header] + rows, escape: Self.escaped)
            + "\(accounts.count) account\(accounts.count == 1 ? "" : "s"); quota per account: \(quota.entries) entries, "
            + "\(Self.bytes(quota.bytes)) (server.quota.entries, server.quota.bytes)\n"
    }

    func devices(_ devices: [SyncDevice], of account: SyncAccountID) throws -> String {
        if json { return try encode(DevicesDocument(account: account.description, devices: devices.map(DeviceDTO.init))) }
        let rows = devices.map { device in
            [
                device.name, AdminReference.short(device.id.uuid), Self.time(device.enrolledAt),
                device.lastSeenAt.map(Self.time) ?? "never", device.revokedAt.map(Self.time) ?? "-",
            ]
        }
        return TextTable.render([["NAME", "DEVICE", "ENROLLED", "LAST SEEN", "REVOKED"]] + rows, escape: Self.escaped)
    }

    func revoked(_ device: SyncDevice) throws -> String {
        if json { return try encode(DeviceDTO(device)) }
        return
            "revoked \(Self.escaped(device.name)) (\(AdminReference.short(device.id.uuid))) at \(device.revokedAt.map(Self.time) ?? "-")\n"
    }

    /// The code alone on its line (for a script or a copy), then when it expires and how it is used.
    func invitation(_ code: SyncSecret, expiresAt: Date, signup: SignupSetting) throws -> String {
        let text = Data(code.bytes).base64EncodedString()
        if json { return try encode(InvitationDTO(invitation: text, expires: expiresAt)) }
        let note = signup == .invitation ? "" : " (this server's server.signup is \(signup.rawValue): it asks for none)"
        return text + "\n" + "single-use, valid until \(Self.time(expiresAt)); whoever opens the sync account gives it to "
            + "tokens sync init --server URL --invite\(note)\n"
    }

    /// The account's quota as it holds: each part its own or the server's.
    func quota(_ account: AccountSummary) throws -> String {
        let applied = account.quota.applied(to: quota)
        if json {
            return try encode(
                QuotaDocument(
                    account: account.id.description, entries: applied.entries, bytes: applied.bytes,
                    entriesSet: account.quota.entries != nil, bytesSet: account.quota.bytes != nil))
        }
        let entries = "\(applied.entries) entries" + (account.quota.entries == nil ? " (the server's)" : "")
        let bytes = Self.bytes(applied.bytes) + (account.quota.bytes == nil ? " (the server's)" : "")
        return "account \(AdminReference.short(account.id.uuid)) may hold \(entries) and \(bytes); "
            + "it holds \(account.usage.entries) and \(Self.bytes(account.usage.bytes))\n"
    }

    /// "100 entries, 1.0 MiB", the server's part named as such.
    private func describe(_ override: AccountQuota) -> String {
        let applied = override.applied(to: quota)
        return (override.entries == nil ? "server's" : "\(applied.entries)") + " entries, "
            + (override.bytes == nil ? "server's" : Self.bytes(applied.bytes))
    }

    func deleted(_ account: AccountSummary) throws -> String {
        if json { return try encode(AccountDTO(account)) }
        return "deleted \(describe(account))\n"
    }

    /// "account 1a2b3c4d (2 devices, 40 entries, 12.0 KB)".
    func describe(_ account: AccountSummary) -> String {
        let devices = account.activeDevices + account.revokedDevices
        return "account \(AdminReference.short(account.id.uuid)) (\(devices) device\(devices == 1 ? "" : "s"), "
            + "\(account.usage.entries) entr\(account.usage.entries == 1 ? "y" : "ies"), \(Self.bytes(account.usage.bytes)))"
    }

    private func encode(_ document: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return String(decoding: try encoder.encode(document), as: UTF8.self) + "\n"
    }

    /// A device's name made safe for the terminal: every control, format (bidi overrides and
    /// isolates, zero-width marks) and line or paragraph separator character as a visible `\u{…}`.
    /// The server cannot use the client's TerminalText (rule 14), and its rule is stricter.
    static func escaped(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator:
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    static func time(_ date: Date) -> String { date.formatted(.iso8601) }

    static func bytes(_ count: Int) -> String {
        count < 1024
            ? "\(count) B"
            : count < 1024 * 1024
                ? String(format: "%.1f KiB", Double(count) / 1024) : String(format: "%.1f MiB", Double(count) / 1024 / 1024)
    }
}

private struct InvitationDTO: Encodable {
    let invitation: String
    let expires: Date
}

private struct QuotaDTO: Encodable {
    let entries: Int
    let bytes: Int
    init(_ quota: StorageQuota) {
        entries = quota.entries
        bytes = quota.bytes
    }
}

private struct QuotaDocument: Encodable {
    let account: String
    let entries: Int
    let bytes: Int
    /// Whether each part is the account's own (else the server's).
    let entriesSet: Bool
    let bytesSet: Bool
}

private struct AccountsDocument: Encodable {
    let quota: QuotaDTO
    let accounts: [AccountDTO]
}

private struct AccountDTO: Encodable {
    let id: String
    let created: Date
    let devices: Int
    let revokedDevices: Int
    let entries: Int
    let bytes: Int
    let lastChange: Date?
    let lastSeen: Date?
    /// The account's own quota, where the operator set one (each part absent: the server's).
    let quota: AccountQuotaDTO?

    init(_ account: AccountSummary) {
        id = account.id.description
        created = account.createdAt
        devices = account.activeDevices
        revokedDevices = account.revokedDevices
        entries = account.usage.entries
        bytes = account.usage.bytes
        lastChange = account.lastChange
        lastSeen = account.lastSeen
        quota = account.quota.isServerDefault ? nil : AccountQuotaDTO(entries: account.quota.entries, bytes: account.quota.bytes)
    }
}

private struct AccountQuotaDTO: Encodable {
    let entries: Int?
    let bytes: Int?
}

private struct DevicesDocument: Encodable {
    let account: String
    let devices: [DeviceDTO]
}

private struct DeviceDTO: Encodable {
    let id: String
    let name: String
    let enrolled: Date
    let revoked: Date?
    let lastSeen: Date?

    init(_ device: SyncDevice) {
        id = device.id.description
        name = device.name
        enrolled = device.enrolledAt
        revoked = device.revokedAt
        lastSeen = device.lastSeenAt
    }
}
