import Crypto
import Foundation
import Testing

@testable import DataLayer

/// The entries' opening with one key schedule (`EntryAEAD`, BoringSSL reached directly) is held
/// to swift-crypto's AES.GCM: the same plaintext for what it seals, a refusal for anything
/// changed, and many threads at once on one context.
@Suite("Entry AEAD: the same opening as AES.GCM")
struct EntryAEADTests {
    static func hex(_ text: String) -> [UInt8] {
        stride(from: 0, to: text.count, by: 2).map { offset in
            let start = text.index(text.startIndex, offsetBy: offset)
            return UInt8(text[start..<text.index(start, offsetBy: 2)], radix: 16)!
        }
    }

    @Test("a published AES-256-GCM vector (the GCM specification's test case 16) opens to its plaintext")
    func publishedVector() throws {
        let key = SymmetricKey(data: Self.hex("feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308"))
        let sealed = Self.hex(
            "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662"
                + "76fc6ece0f4e1768cddf8853bb2d551b")
        let opened = EntryAEAD(key: key).open(
            nonce: Data(Self.hex("cafebabefacedbaddecaf888")), ciphertext: Data(sealed),
            authenticating: Self.hex("feedfacedeadbeeffeedfacedeadbeefabaddad2"))
        #expect(
            opened
                == Self.hex(
                    "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39"
                ))
    }

    @Test("what VaultCrypto seals opens to the same bytes AES.GCM.open gives", arguments: [0, 1, 15, 16, 17, 120, 4_000])
    func sameAsSwiftCrypto(length: Int) throws {
        let key = SymmetricKey(size: .bits256)
        let plaintext = VaultCrypto.randomBytes(length)
        let aad = VaultCrypto.randomBytes(length % 50)
        let sealed = try VaultCrypto.seal(plaintext, key: key, authenticating: Data(aad))
        let theirs = VaultCrypto.open(nonce: sealed.nonce, ciphertext: sealed.ciphertext, key: key, authenticating: aad)
        #expect(theirs.map(Array.init) == plaintext)
        #expect(EntryAEAD(key: key).open(nonce: sealed.nonce, ciphertext: sealed.ciphertext, authenticating: aad) == plaintext)
    }

    @Test("any bit changed in the nonce, the ciphertext, the tag or the associated data is refused, as AES.GCM refuses it")
    func everyBitChecked() throws {
        let key = SymmetricKey(size: .bits256)
        let aead = EntryAEAD(key: key)
        let aad = Array("tokens/entry/v2".utf8)
        let sealed = try VaultCrypto.seal(Array("{\"issuer\":\"GitHub\"}".utf8), key: key, authenticating: Data(aad))
        for bit in 0..<(sealed.nonce.count * 8) {
            var nonce = Data(Array(sealed.nonce))
            nonce[bit / 8] ^= 1 << UInt8(bit % 8)
            #expect(aead.open(nonce: nonce, ciphertext: sealed.ciphertext, authenticating: aad) == nil)
            #expect(VaultCrypto.open(nonce: nonce, ciphertext: sealed.ciphertext, key: key, authenticating: aad) == nil)
        }
        for bit in 0..<(sealed.ciphertext.count * 8) {
            var ciphertext = Data(Array(sealed.ciphertext))
            ciphertext[bit / 8] ^= 1 << UInt8(bit % 8)
            #expect(aead.open(nonce: sealed.nonce, ciphertext: ciphertext, authenticating: aad) == nil)
        }
        for bit in 0..<(aad.count * 8) {
            var changed = aad
            changed[bit / 8] ^= 1 << UInt8(bit % 8)
            #expect(aead.open(nonce: sealed.nonce, ciphertext: sealed.ciphertext, authenticating: changed) == nil)
        }
        #expect(aead.open(nonce: sealed.nonce, ciphertext: sealed.ciphertext, authenticating: aad + [0]) == nil)
        #expect(aead.open(nonce: sealed.nonce, ciphertext: sealed.ciphertext.dropLast(), authenticating: aad) == nil)
        #expect(
            EntryAEAD(key: SymmetricKey(size: .bits256)).open(nonce: sealed.nonce, ciphertext: sealed.ciphertext, authenticating: aad)
                == nil)
        #expect(
            aead.open(nonce: sealed.nonce, ciphertext: sealed.ciphertext, authenticating: aad) != nil,
            "a refusal leaves the context as it was")
    }

    @Test("a nonce that is not 12 bytes, a ciphertext shorter than its tag, a key that is not 256 bits: refused, not a crash")
    func malformed() throws {
        let key = SymmetricKey(size: .bits256)
        let sealed = try VaultCrypto.seal([1, 2, 3], key: key, authenticating: Data())
        let aead = EntryAEAD(key: key)
        #expect(aead.open(nonce: sealed.nonce.prefix(11), ciphertext: sealed.ciphertext, authenticating: []) == nil)
        #expect(aead.open(nonce: sealed.nonce + [0], ciphertext: sealed.ciphertext, authenticating: []) == nil)
        #expect(aead.open(nonce: sealed.nonce, ciphertext: sealed.ciphertext.prefix(15), authenticating: []) == nil)
        #expect(aead.open(nonce: sealed.nonce, ciphertext: Data(), authenticating: []) == nil)
        #expect(
            EntryAEAD(key: SymmetricKey(size: .bits128)).open(nonce: sealed.nonce, ciphertext: sealed.ciphertext, authenticating: []) == nil
        )
        #expect(aead.open(nonce: sealed.nonce, ciphertext: sealed.ciphertext, authenticating: []) == [1, 2, 3])
    }

    @Test("where no context can be made (a key BoringSSL's AES-256-GCM does not take here; Apple's platforms always), AES.GCM opens")
    func fallsBack() throws {
        let key = SymmetricKey(size: .bits128)
        let sealed = try VaultCrypto.seal(Array("{\"issuer\":\"GitHub\"}".utf8), key: key, authenticating: Data([7]))
        let aead = EntryAEAD(key: key)
        #expect(aead.open(nonce: sealed.nonce, ciphertext: sealed.ciphertext, authenticating: [7]) == Array("{\"issuer\":\"GitHub\"}".utf8))
        #expect(aead.open(nonce: sealed.nonce, ciphertext: sealed.ciphertext, authenticating: [8]) == nil)
    }

    @Test("one context opens on every core at once, authentic and damaged messages mixed")
    func concurrent() throws {
        let key = SymmetricKey(size: .bits256)
        let aead = EntryAEAD(key: key)
        let messages = try (0..<64).map { index in
            let plaintext = Array("entry \(index)".utf8)
            let sealed = try VaultCrypto.seal(plaintext, key: key, authenticating: Data([UInt8(index)]))
            // (Rebased: what seal gives may be a slice, indexed from its place in the box.)
            var ciphertext = Data(Array(sealed.ciphertext))
            if index % 5 == 0 { ciphertext[0] ^= 1 }
            return (plaintext, sealed.nonce, ciphertext, index % 5 != 0)
        }
        let results = try Array(0..<2_000).mappedOnAllCores(perPart: 100) { round in
            let (plaintext, nonce, ciphertext, authentic) = messages[round % messages.count]
            let opened = aead.open(nonce: nonce, ciphertext: ciphertext, authenticating: [UInt8(round % messages.count)])
            return authentic ? opened == plaintext : opened == nil
        }
        #expect(results.allSatisfy { $0 })
    }
}
