import Crypto
import Domain
import Foundation

/// Aegis vaults, plain and encrypted (password slots: scrypt, AES-256-GCM), both ways.
enum AegisCodec {
    static func decode(_ data: Data, password: String?) throws -> DecodedImport {
        let vault = try InteropJSON.decode(AegisVaultDTO.self, from: data, .aegis)
        guard vault.version == 1 else { throw ImportError.unsupported(.aegis, "vault version \(vault.version)") }
        let database: AegisDatabaseDTO
        switch vault.db {
        case .plain(let plain):
            database = plain
        case .encrypted(let ciphertext):
            guard let password else { throw ImportError.passwordRequired(.aegis) }
            let key = try masterKey(vault.header, password: password)
            guard let params = vault.header.params, let nonce = Hex.bytes(params.nonce),
                let tag = Hex.bytes(params.tag), let body = Data(base64Encoded: ciphertext),
                var plaintext = InteropCrypto.openGCM(key: key, nonce: nonce, ciphertext: Array(body), tag: tag)
            else { throw ImportError.malformed(.aegis, "the encrypted database does not decrypt") }
            defer { plaintext.wipe() }
            database = try InteropJSON.decode(AegisDatabaseDTO.self, from: plaintext, .aegis)
        }
        guard database.version <= 3 else { throw ImportError.unsupported(.aegis, "database version \(database.version)") }
        var collector = InteropCollector()
        database.collect(into: &collector)
        return collector.result(.aegis)
    }

    /// The master key from the first password slot `password` opens.
    private static func masterKey(_ header: AegisVaultDTO.Header, password: String) throws -> SymmetricKey {
        let slots = (header.slots ?? []).filter { $0.type == 1 }
        guard !slots.isEmpty else { throw ImportError.unsupported(.aegis, "no password slot (biometric only)") }
        // Only the first few password slots, and only those whose scrypt cost is within bounds.
        var tried = 0
        var budget = ScryptParameters.importWorkBudget
        for slot in slots.prefix(ScryptParameters.maximumSlots) {
            guard let n = slot.n, let r = slot.r, let p = slot.p, let salt = slot.salt.flatMap(Hex.bytes),
                let wrapped = Hex.bytes(slot.key), let nonce = Hex.bytes(slot.key_params.nonce),
                let tag = Hex.bytes(slot.key_params.tag), ScryptParameters(n: n, r: r, p: p).isValid,
                ScryptParameters(n: n, r: r, p: p).work <= budget
            else { continue }
            budget -= ScryptParameters(n: n, r: r, p: p).work
            tried += 1
            let kek: SymmetricKey
            do {
                kek = try VaultCrypto.scrypt(Array(password.utf8), salt: salt, parameters: ScryptParameters(n: n, r: r, p: p))
            } catch {
                throw ImportError.malformed(.aegis, "a password slot's scrypt parameters cannot be used")
            }
            if var key = InteropCrypto.openGCM(key: kek, nonce: nonce, ciphertext: wrapped, tag: tag) {
                defer { key.wipe() }
                return SymmetricKey(data: key)
            }
        }
        guard tried > 0 else {
            throw ImportError.unsupported(
                .aegis,
                "no password slot with scrypt parameters Tokens accepts (N up to 2^20, r up to 32, p up to 4, 128 MiB of work in all)")
        }
        throw ImportError.wrongPassword(.aegis)
    }

    /// An Aegis vault of `accounts`: encrypted with one password slot when `password` is given.
    static func encode(_ accounts: [Account], password: String?, random: any RandomSource) throws -> Data {
        let database = AegisDatabaseDTO(accounts, random: random)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let password else {
            return try encoder.encode(AegisVaultDTO(version: 1, header: .init(slots: nil, params: nil), db: .plain(database)))
        }
        var masterBytes = random.bytes(count: 32)
        defer { for index in masterBytes.indices { masterBytes[index] = 0 } }
        let master = SymmetricKey(data: masterBytes)
        let salt = random.bytes(count: 32)
        let cost = ScryptParameters.default
        let kek = try VaultCrypto.scrypt(Array(password.utf8), salt: salt, parameters: cost)
        var raw = master.withUnsafeBytes { Data($0) }
        defer { raw.wipe() }
        let wrapped = try AES.GCM.seal(raw, using: kek, nonce: AES.GCM.Nonce(data: random.bytes(count: 12)))
        let inner = JSONEncoder()
        inner.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var plaintext = try inner.encode(database)
        defer { plaintext.wipe() }
        let sealed = try AES.GCM.seal(plaintext, using: master, nonce: AES.GCM.Nonce(data: random.bytes(count: 12)))
        let slot = AegisVaultDTO.Slot(
            type: 1, uuid: random.uuid().uuidString.lowercased(), key: Hex.string(wrapped.ciphertext),
            key_params: .init(nonce: Hex.string(wrapped.nonce), tag: Hex.string(wrapped.tag)), n: cost.n, r: cost.r,
            p: cost.p,
            salt: Hex.string(salt), repaired: true, is_backup: false)
        let vault = AegisVaultDTO(
            version: 1,
            header: .init(slots: [slot], params: .init(nonce: Hex.string(sealed.nonce), tag: Hex.string(sealed.tag))),
            db: .encrypted(sealed.ciphertext.base64EncodedString()))
        return try encoder.encode(vault)
    }
}
