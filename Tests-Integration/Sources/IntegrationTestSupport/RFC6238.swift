/// RFC 6238 Appendix B: the seeds (per the errata) and all 18 test values, 8 digits, 30 s.
public enum RFC6238 {
    /// The Base32 seeds by algorithm name.
    public static let seeds: [String: String] = [
        "SHA1": "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ",
        "SHA256": "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZA",
        "SHA512": "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNA",
    ]

    public struct Vector: Sendable, CustomStringConvertible {
        public let time: Int64
        public let algorithm: String
        public let code: String
        public var description: String { "\(algorithm) at \(time)" }

        /// The Key URI of this vector's seed.
        public var uri: String {
            "otpauth://totp/RFC6238:\(algorithm)?secret=\(RFC6238.seeds[algorithm]!)&algorithm=\(algorithm)&digits=8&period=30"
        }
    }

    public static let vectors: [Vector] = [
        (59, "94287082", "46119246", "90693936"), (1_111_111_109, "07081804", "68084774", "25091201"),
        (1_111_111_111, "14050471", "67062674", "99943326"), (1_234_567_890, "89005924", "91819424", "93441116"),
        (2_000_000_000, "69279037", "90698825", "38618901"), (20_000_000_000, "65353130", "77737706", "47863826"),
    ].flatMap { row in
        [
            Vector(time: row.0, algorithm: "SHA1", code: row.1), Vector(time: row.0, algorithm: "SHA256", code: row.2),
            Vector(time: row.0, algorithm: "SHA512", code: row.3),
        ]
    }
}
