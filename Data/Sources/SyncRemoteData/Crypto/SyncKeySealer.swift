import Crypto
import Domain
import Foundation

/// Domain's `SyncKeySealing` with swift-crypto. A device key is an X25519 public key and an
/// HMAC-SHA256 over it under a key derived from the sync key (so the server, which has no sync
/// key, cannot put its own in). A wrapped key is sealed with AES-256-GCM under an ephemeral
/// X25519 agreement with the device key, and carries an HMAC-SHA256 under a key derived from
/// the sync key it replaces (so the server cannot hand out a key of its own). A key ring is the
/// earlier keys sealed with AES-256-GCM under a key derived from the current one. Every
/// derivation is HKDF-SHA256 salted with the sync account's id; every seal binds the account,
/// the version and (for a wrapped key) the device.
public struct SyncKeySealer: SyncKeySealing {
    public init() {}

    public func deviceKey(secret: SyncKey, code: SyncCode) -> [UInt8] {
        let publicKey = Self.agreementKey(secret).publicKey.rawRepresentation
        return Array(publicKey) + Self.binding(publicKey, account: code.account, key: code.key)
    }

    public func isBound(_ deviceKey: [UInt8], account: UUID, keys: [Int: SyncKey]) -> Bool {
        guard deviceKey.count == 64 else { return false }
        let publicKey = Data(deviceKey.prefix(32))
        return keys.values.contains { key in
            HMAC<SHA256>.isValidAuthenticationCode(
                Data(deviceKey.suffix(32)), authenticating: Self.bindingMessage(publicKey, account: account),
                using: Self.derived(key, account: account, purpose: "bind"))
        }
    }

    public func wrap(_ key: SyncKey, version: Int, for deviceKey: [UInt8], device: UUID, account: UUID, previous: SyncKey) throws -> [UInt8]
    {
        let recipient = try Curve25519.KeyAgreement.PublicKey(rawRepresentation: deviceKey.prefix(32))
        let ephemeral = Curve25519.KeyAgreement.PrivateKey()
        let sealingKey = try Self.wrappingKey(
            ephemeral.sharedSecretFromKeyAgreement(with: recipient), ephemeral: ephemeral.publicKey, recipient: recipient,
            device: device, version: version, account: account)
        var plaintext = Data(key.bytes) + Self.rotationTag(key, version: version, account: account, previous: previous)
        defer { plaintext.wipe() }
        let box = try AES.GCM.seal(
            plaintext, using: sealingKey, authenticating: Self.context(account: account, version: version, device: device))
        guard let combined = box.combined else { throw CryptoKitError.incorrectParameterSize }
        return Array(ephemeral.publicKey.rawRepresentation) + Array(combined)
    }

    public func unwrap(_ wrapped: [UInt8], version: Int, device: UUID, account: UUID, secret: SyncKey, previous: [Int: SyncKey]) -> SyncKey?
    {
        let own = Self.agreementKey(secret)
        guard wrapped.count == 32 + 12 + 64 + 16,
            let ephemeral = try? Curve25519.KeyAgreement.PublicKey(rawRepresentation: wrapped.prefix(32)),
            let shared = try? own.sharedSecretFromKeyAgreement(with: ephemeral),
            let sealingKey = try? Self.wrappingKey(
                shared, ephemeral: ephemeral, recipient: own.publicKey, device: device, version: version, account: account),
            let box = try? AES.GCM.SealedBox(combined: wrapped.dropFirst(32)),
            var plaintext = try? AES.GCM.open(
                box, using: sealingKey, authenticating: Self.context(account: account, version: version, device: device))
        else { return nil }
        defer { plaintext.wipe() }
        guard let key = SyncKey(bytes: Array(plaintext.prefix(32))) else { return nil }
        let tag = Data(plaintext.suffix(32))
        // Compared in constant time, as any MAC.
        let bound = previous.values.contains {
            HMAC<SHA256>.isValidAuthenticationCode(
                tag, authenticating: Self.rotationMessage(key, version: version, account: account),
                using: Self.derived($0, account: account, purpose: "rotation"))
        }
        return bound ? key : nil
    }

    public func sealRing(_ keys: [Int: SyncKey], under key: SyncKey, version: Int, account: UUID) throws -> [UInt8] {
        var plaintext = Data()
        defer { plaintext.wipe() }
        for (keyVersion, earlier) in keys.sorted(by: { $0.key < $1.key }) {
            plaintext += Self.bigEndian(UInt64(keyVersion)) + earlier.bytes
        }
        let box = try AES.GCM.seal(
            plaintext, using: Self.derived(key, account: account, purpose: "ring"),
            authenticating: Self.context(account: account, version: version))
        guard let combined = box.combined else { throw CryptoKitError.incorrectParameterSize }
        return Array(combined)
    }

    public func openRing(_ ring: [UInt8], under key: SyncKey, version: Int, account: UUID) -> [Int: SyncKey]? {
        guard let box = try? AES.GCM.SealedBox(combined: ring),
            var plaintext = try? AES.GCM.open(
                box, using: Self.derived(key, account: account, purpose: "ring"),
                authenticating: Self.context(account: account, version: version)),
            plaintext.count % 40 == 0
        else { return nil }
        defer { plaintext.wipe() }
        let bytes = Array(plaintext)
        var keys: [Int: SyncKey] = [:]
        for start in stride(from: 0, to: bytes.count, by: 40) {
            let keyVersion = bytes[start..<(start + 8)].reduce(0) { $0 << 8 | Int($1) }
            keys[keyVersion] = SyncKey(bytes: Array(bytes[(start + 8)..<(start + 40)]))
        }
        return keys
    }

    // MARK: The parts

    private static func agreementKey(_ secret: SyncKey) -> Curve25519.KeyAgreement.PrivateKey {
        // Any 32 bytes are a valid X25519 private key (clamped when used).
        try! Curve25519.KeyAgreement.PrivateKey(rawRepresentation: secret.bytes)
    }

    private static func derived(_ key: SyncKey, account: UUID, purpose: String) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: key.bytes), salt: Data(account.bytes), info: Data("tokens/sync/\(purpose)/v1".utf8),
            outputByteCount: 32)
    }

    private static func bindingMessage(_ publicKey: Data, account: UUID) -> Data {
        Data("tokens/sync/device-key/v1".utf8) + account.bytes + publicKey
    }

    private static func binding(_ publicKey: Data, account: UUID, key: SyncKey) -> [UInt8] {
        Array(
            HMAC<SHA256>.authenticationCode(
                for: bindingMessage(publicKey, account: account), using: derived(key, account: account, purpose: "bind")))
    }

    private static func rotationMessage(_ key: SyncKey, version: Int, account: UUID) -> Data {
        Data("tokens/sync/rotation/v1".utf8) + account.bytes + bigEndian(UInt64(version)) + key.bytes
    }

    private static func rotationTag(_ key: SyncKey, version: Int, account: UUID, previous: SyncKey) -> Data {
        Data(
            HMAC<SHA256>.authenticationCode(
                for: rotationMessage(key, version: version, account: account),
                using: derived(previous, account: account, purpose: "rotation")))
    }

    private static func wrappingKey(
        _ shared: SharedSecret, ephemeral: Curve25519.KeyAgreement.PublicKey, recipient: Curve25519.KeyAgreement.PublicKey, device: UUID,
        version: Int, account: UUID
    ) throws -> SymmetricKey {
        let info = context(account: account, version: version, device: device) + ephemeral.rawRepresentation + recipient.rawRepresentation
        return shared.hkdfDerivedSymmetricKey(using: SHA256.self, salt: Data(account.bytes), sharedInfo: info, outputByteCount: 32)
    }

    private static func context(account: UUID, version: Int, device: UUID? = nil) -> Data {
        Data("tokens/sync/key/v1".utf8) + account.bytes + bigEndian(UInt64(version)) + (device.map { Data($0.bytes) } ?? Data())
    }

    private static func bigEndian(_ value: UInt64) -> Data {
        Data((0..<8).reversed().map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) })
    }
}
