import Domain
import DomainTestSupport
import Foundation
import SyncRemoteData
import Testing

/// The real sealing of sync keys: Domain's contract, and what a server holding every byte it is
/// sent still cannot do.
@Suite("Sync key sealing")
struct SyncKeySealerTests {
    let sealer = SyncKeySealer()
    let account = UUID()
    let device = UUID()
    func key(_ n: UInt8) -> SyncKey { SyncKey(bytes: Array(repeating: n, count: 32))! }

    @Test("the real sealer keeps the sealing contract")
    func contract() throws { try SyncKeySealingContract.check(sealer) }

    @Test("device keys are 64 bytes (X25519 public key and binding) and hold nothing of the secret or the sync key")
    func deviceKeyShape() {
        let deviceKey = sealer.deviceKey(secret: key(9), code: SyncCode(account: account, key: key(1)))
        #expect(deviceKey.count == 64)
        for secret in [key(9).bytes, key(1).bytes] {
            #expect(!Data(deviceKey).range(of: Data(secret.prefix(8))).map { _ in true }.isSome)
        }
        // The same secret bound for another account is not bound for this one.
        let elsewhere = sealer.deviceKey(secret: key(9), code: SyncCode(account: UUID(), key: key(1)))
        #expect(!sealer.isBound(elsewhere, account: account, keys: [1: key(1)]))
    }

    @Test("a server that wraps a key of its own to a device's public key is refused: it has no previous sync key to bind it")
    func serverCannotHandOutItsOwnKey() throws {
        let deviceKey = sealer.deviceKey(secret: key(9), code: SyncCode(account: account, key: key(1)))
        // The server knows the device key and can draw any "previous" key but the real one.
        let forged = try sealer.wrap(key(0xEE), version: 2, for: deviceKey, device: device, account: account, previous: key(0x55))
        #expect(sealer.unwrap(forged, version: 2, device: device, account: account, secret: key(9), previous: [1: key(1)]) == nil)
        // Two wraps of one key differ (a new ephemeral key each time) and both open.
        let first = try sealer.wrap(key(5), version: 2, for: deviceKey, device: device, account: account, previous: key(1))
        let second = try sealer.wrap(key(5), version: 2, for: deviceKey, device: device, account: account, previous: key(1))
        #expect(first != second && first.count == 124)
        #expect(sealer.unwrap(second, version: 2, device: device, account: account, secret: key(9), previous: [1: key(1)]) == key(5))
    }
}

extension Optional {
    fileprivate var isSome: Bool { self != nil }
}
