/// The cost of the password KDF (scrypt). Stored with each key slot, so it can change over time.
public struct ScryptParameters: Hashable, Sendable, Codable {
    /// N, the CPU/memory cost: a power of two.
    public let n: Int
    /// r, the block size.
    public let r: Int
    /// p, the parallelism.
    public let p: Int

    public init(n: Int, r: Int, p: Int) {
        self.n = n
        self.r = r
        self.p = p
    }

    /// N = 2^15, r = 8, p = 1: about 32 MiB and a tenth of a second per unlock.
    public static let `default` = ScryptParameters(n: 1 << 15, r: 8, p: 1)

    /// Whether these parameters are sane enough to run (and not a denial of service).
    var isValid: Bool {
        n >= 2 && n & (n - 1) == 0 && n <= 1 << 22 && (1...32).contains(r) && (1...16).contains(p)
    }

    /// Memory scrypt needs, with headroom, for BoringSSL's limit.
    var memoryLimit: Int { 128 * r * (n + p + 2) + (1 << 20) }
}
