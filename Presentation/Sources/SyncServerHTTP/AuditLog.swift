import Logging
import SyncServer

/// The operator's record of who may sync: accounts opened, devices enrolled and revoked, pushes
/// refused by the quota; at info, each with the client's address or the device that acted. An
/// account is named by the first 8 characters of its id (the id is part of the sync code a user
/// keeps; the prefix finds it in the database, `WHERE id::text LIKE 'prefix%'`); a device by its
/// id, which the server drew. Never a key, token, device name or ciphertext.
struct AuditLog: Sendable {
    let logger: Logger

    func accountOpened(_ account: SyncAccountID, from address: String) {
        logger.info("account opened", metadata: ["account": "\(Self.prefix(account))", "client": "\(address)"])
    }

    func deviceEnrolled(_ device: DeviceID, of account: SyncAccountID, from address: String) {
        logger.info(
            "device enrolled", metadata: ["account": "\(Self.prefix(account))", "device": "\(device)", "client": "\(address)"])
    }

    func deviceRevoked(_ device: DeviceID, by caller: AuthenticatedDevice) {
        logger.info(
            "device revoked", metadata: ["account": "\(Self.prefix(caller.account))", "device": "\(device)", "by": "\(caller.device)"])
    }

    func quotaRefused(_ caller: AuthenticatedDevice) {
        logger.info("push refused by the quota", metadata: ["account": "\(Self.prefix(caller.account))", "device": "\(caller.device)"])
    }

    /// What names an account in the log.
    static func prefix(_ account: SyncAccountID) -> String { String(account.description.prefix(8)) }
}
