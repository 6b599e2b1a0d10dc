import Domain
import Foundation
import Testing

/// What every `SyncKeySealing` does, run against Domain's fake and Data's real sealer: device
/// keys bound to a sync key, wrapped keys that only the device's secret and a previous key open,
/// key rings that only their key opens.
public enum SyncKeySealingContract {
    static let account = UUID(uuidString: "00000000-0000-4000-8000-00000000A001")!
    static let device = UUID(uuidString: "00000000-0000-4000-8000-00000000D001")!
    static func key(_ n: UInt8) -> SyncKey { SyncKey(bytes: Array(repeating: n, count: 32))! }

    public static func check(_ sealing: any SyncKeySealing) throws {
        let code = SyncCode(account: account, key: key(1))
        let secret = key(9)
        let deviceKey = sealing.deviceKey(secret: secret, code: code)
        #expect(sealing.isBound(deviceKey, account: account, keys: [1: key(1)]))
        #expect(sealing.isBound(deviceKey, account: account, keys: [3: key(3), 1: key(1)]))
        #expect(!sealing.isBound(deviceKey, account: account, keys: [1: key(2)]))
        #expect(
            !sealing.isBound(
                sealing.deviceKey(secret: secret, code: SyncCode(account: account, key: key(2))), account: account, keys: [1: key(1)]))

        let wrapped = try sealing.wrap(key(5), version: 2, for: deviceKey, device: device, account: account, previous: key(1))
        #expect(sealing.unwrap(wrapped, version: 2, device: device, account: account, secret: secret, previous: [1: key(1)]) == key(5))
        // Another device's secret, a previous key the wrapper did not hold, another version or device: nothing.
        #expect(sealing.unwrap(wrapped, version: 2, device: device, account: account, secret: key(8), previous: [1: key(1)]) == nil)
        #expect(sealing.unwrap(wrapped, version: 2, device: device, account: account, secret: secret, previous: [1: key(7)]) == nil)
        #expect(sealing.unwrap(wrapped, version: 3, device: device, account: account, secret: secret, previous: [1: key(1)]) == nil)
        #expect(sealing.unwrap(wrapped, version: 2, device: account, account: account, secret: secret, previous: [1: key(1)]) == nil)
        #expect(
            sealing.unwrap(Array(wrapped.dropLast()), version: 2, device: device, account: account, secret: secret, previous: [1: key(1)])
                == nil)

        let ring = try sealing.sealRing([1: key(1), 2: key(5)], under: key(6), version: 3, account: account)
        #expect(sealing.openRing(ring, under: key(6), version: 3, account: account) == [1: key(1), 2: key(5)])
        #expect(sealing.openRing(ring, under: key(5), version: 3, account: account) == nil)
        #expect(sealing.openRing(ring, under: key(6), version: 4, account: account) == nil)
        #expect(sealing.openRing([], under: key(6), version: 3, account: account) == nil)
    }
}
