import Crypto
import CryptoExtras
import DataLayer
import Domain
import DomainTestSupport
import Foundation
import Testing

/// A small slice of `make fuzz`: mutated inputs for every parser must give a result or an
/// ImportError, never a crash or another error.
@Suite("Parsers of untrusted input never crash")
struct InteropRobustnessTests {
    /// Inputs per format here; `make fuzz` runs TOKENS_FUZZ_ITERATIONS (100 000) of them.
    static let iterations = Int(ProcessInfo.processInfo.environment["TOKENS_FUZZ_ITERATIONS"] ?? "") ?? 300

    static let seeds: [(ImportFormat?, String)] = {
        let accounts = InteropRoundTripTests.accounts
        let codec = InteropCodec()
        func export(_ format: ExportFormat) -> String {
            String(
                decoding: (try? codec.encode(accounts, as: format, password: format == .aegisEncrypted ? "pw" : nil).data) ?? Data(),
                as: UTF8.self)
        }
        return [
            (nil, export(.keyURIs)), (.aegis, export(.aegis)), (.aegis, export(.aegisEncrypted)),
            (.googleMigration, export(.googleMigration)),
            (
                .twoFAS,
                #"{"services":[{"name":"A","secret":"JBSWY3DP","otp":{"account":"a","digits":6,"period":30,"algorithm":"SHA1","tokenType":"TOTP"}}],"schemaVersion":4,"groups":[]}"#
            ),
            (.andOTP, #"[{"secret":"JBSWY3DP","issuer":"A","label":"a","digits":6,"type":"TOTP","algorithm":"SHA1","period":30}]"#),
            (
                .freeOTPPlus,
                #"{"tokens":[{"algo":"SHA1","counter":0,"digits":6,"issuerExt":"A","label":"a","period":30,"secret":[1,-2,3],"type":"TOTP"}]}"#
            ),
            (.bitwarden, #"{"encrypted":false,"items":[{"name":"A","login":{"totp":"steam://JBSWY3DP"}}]}"#),
            (.proton, #"{"version":1,"entries":[{"content":{"uri":"otpauth://totp/A:a?secret=JBSWY3DP","name":"a"},"note":null}]}"#),
            (.steam, #"{"shared_secret":"THIl8+Jl6ugxr8x0X6eRMg==","account_name":"a"}"#),
            (.ente, "otpauth://totp/A:a?secret=JBSWY3DP&codeDisplay=%7B%22pinned%22%3Atrue%7D"),
            (.twoFAS, EncryptedSeeds.twoFAS), (.andOTP, EncryptedSeeds.andOTP),
            // Hostile inputs: terminal escapes in names, a batch count of 2^31 − 1.
            (.keyURIs, InteropHostileTextTests.uriList),
            (.googleMigration, (try? GoogleMigrationLimitsTests.line(batchSize: .max, batchIndex: 0)) ?? ""),
            // Lines found on bytes: CR LF, comments, white space, case; JSON detected by its keys only.
            (nil, "# a comment\r\n\t OTPAUTH://totp/A:a?secret=JBSWY3DP\r\n\r\notpauth://hotp/B:b?secret=JBSWY3DP&counter=1\r"),
            (
                nil,
                String(repeating: "[", count: 600) + #"{"tokens":[{"issuerExt":"A"}],"entries":[]}"# + String(repeating: "]", count: 600)
            ),
        ]
    }()

    @Test("the encrypted seeds are real envelopes: they decrypt to one account")
    func encryptedSeeds() throws {
        let twoFAS = try InteropCodec().decode(Data(EncryptedSeeds.twoFAS.utf8), as: nil, password: "pw")
        #expect(twoFAS.format == .twoFAS && twoFAS.entries.count == 1)
        // 1 000 rounds keep the fuzzing fast, and are below what detection takes for andOTP's
        // (100 000 and more): the format is named.
        let andOTP = try InteropCodec().decode(
            Data(base64Encoded: String(EncryptedSeeds.andOTP.dropFirst(7)))!, as: .andOTP, password: "pw")
        #expect(andOTP.format == .andOTP && andOTP.entries.count == 1)
    }

    @Test("mutated inputs for every format", arguments: 0..<seeds.count)
    func mutations(seedIndex: Int) {
        let (format, seed) = Self.seeds[seedIndex]
        var generator = SplitMix(seed: UInt64(seedIndex) &+ 0x5EED)
        let codec = InteropCodec()
        // An intact encrypted Aegis file costs a real scrypt run per try: fewer of those here.
        let iterations = seed.contains("\"slots\" : [") ? max(1, Self.iterations / 30) : Self.iterations
        for _ in 0..<iterations {
            let input = Mutator.mutate(Array(seed.utf8), using: &generator)
            for declared in [format, nil] {
                do { _ = try codec.decode(Data(input), as: declared, password: "pw") } catch is ImportError {} catch {
                    Issue.record("\(declared?.rawValue ?? "detected"): \(type(of: error)) \(error)")
                    return
                }
            }
        }
    }
}

extension InteropRobustnessTests {
    @Test("mutated pictures (a PNG of a QR code, and one of a transfer code): an import or an ImportError, never a crash")
    func pictureMutations() throws {
        let texts = [QRPictureReaderTests.uri, (try? GoogleMigrationLimitsTests.line(batchSize: 1, batchIndex: 0)) ?? ""]
        let codec = InteropCodec()
        for (index, text) in texts.enumerated() {
            let picture = Array(TestPNG.picture(of: [try QREncoder().encode(text)], scale: 2))
            var generator = SplitMix(seed: 0x9_1C7 &+ UInt64(index))
            for iteration in 0..<Self.iterations {
                // Half of them with their CRCs made right, to reach the inflater and the scanner.
                let mutated = Mutator.mutate(picture, using: &generator)
                let input = iteration.isMultiple(of: 2) ? TestPNG.fixingCRCs(mutated) : mutated
                do { _ = try codec.decode(Data(input), as: nil, password: nil) } catch is ImportError {} catch {
                    Issue.record("\(type(of: error)) \(error)")
                    return
                }
            }
        }
    }
}

/// Mutations of a byte string: flips, insertions, deletions, truncations, duplicated chunks, huge numbers.
enum Mutator {
    static func mutate(_ input: [UInt8], using generator: inout SplitMix) -> [UInt8] {
        var bytes = input
        for _ in 0..<Int.random(in: 1...4, using: &generator) {
            guard !bytes.isEmpty else { return [UInt8.random(in: 0...255, using: &generator)] }
            let index = Int.random(in: 0..<bytes.count, using: &generator)
            switch Int.random(in: 0..<7, using: &generator) {
            case 0: bytes[index] = UInt8.random(in: 0...255, using: &generator)
            case 1: bytes.insert(UInt8.random(in: 0...255, using: &generator), at: index)
            case 2: bytes.removeSubrange(index..<min(bytes.count, index + Int.random(in: 1...16, using: &generator)))
            case 3: bytes = Array(bytes.prefix(index))
            case 4:
                let end = min(bytes.count, index + Int.random(in: 1...64, using: &generator))
                bytes.insert(contentsOf: bytes[index..<end], at: end)
            case 5: bytes.insert(contentsOf: Array("99999999999999999999999".utf8), at: index)
            default:
                bytes.insert(
                    contentsOf: Array(["\"", "{", "}", "[", "]", ":", ",", "null", "-1", "%", "="].randomElement(using: &generator)!.utf8),
                    at: index)
            }
        }
        return bytes
    }
}

/// Encrypted envelopes made the way 2FAS and andOTP make them, with the password "pw".
enum EncryptedSeeds {
    static let services = Data(#"[{"name":"A","secret":"JBSWY3DP","otp":{"account":"a","tokenType":"TOTP"}}]"#.utf8)

    static let twoFAS: String = {
        let salt = Data(repeating: 7, count: 256)
        let iv = Data(repeating: 9, count: 12)
        let key = try! KDF.Insecure.PBKDF2.deriveKey(
            from: Array("pw".utf8), salt: salt, using: .sha256, outputByteCount: 32, unsafeUncheckedRounds: 10_000)
        let box = try! AES.GCM.seal(services, using: key, nonce: AES.GCM.Nonce(data: iv))
        let encrypted = [box.ciphertext + box.tag, salt, iv].map { $0.base64EncodedString() }.joined(separator: ":")
        return #"{"services":[],"groups":[],"schemaVersion":4,"servicesEncrypted":""# + encrypted + #""}"#
    }()

    static let andOTP: String = {
        let plain = Data(#"[{"secret":"JBSWY3DP","issuer":"A","label":"a","digits":6,"type":"TOTP","algorithm":"SHA1","period":30}]"#.utf8)
        let rounds = 1000
        let salt = Data(repeating: 3, count: 12)
        let nonce = Data(repeating: 5, count: 12)
        let key = try! KDF.Insecure.PBKDF2.deriveKey(
            from: Array("pw".utf8), salt: salt, using: .insecureSHA1, outputByteCount: 32, unsafeUncheckedRounds: rounds)
        let box = try! AES.GCM.seal(plain, using: key, nonce: AES.GCM.Nonce(data: nonce))
        let header = Data([0, 0, UInt8(rounds >> 8), UInt8(rounds & 0xFF)])
        return "base64:" + (header + salt + nonce + box.ciphertext + box.tag).base64EncodedString()
    }()
}
