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

    /// The most key slots tried, in a vault or another app's export: each costs a scrypt run.
    static let maximumSlots = 8

    /// Whether these parameters may be run at all. Every slot, Tokens' own or another app's, is
    /// held to the same bounds before anything is derived (they come from a file, so before any
    /// authentication): N a power of two from 2 to 2^20, r from 1 to 32, p from 1 to 4, at most
    /// 256 MiB of memory (128·r·N) and 1 GiB of memory passes (128·r·N·p). Outside them a slot
    /// is skipped: a hostile file must not exhaust the machine.
    var isValid: Bool {
        guard n >= 2, n & (n - 1) == 0, n <= 1 << 20, (1...32).contains(r), (1...4).contains(p) else { return false }
        let memory = 128 * r * n
        return memory <= 256 << 20 && memory * p <= 1 << 30
    }

    /// The work of one run, in bytes of memory passes (128·r·N·p).
    var work: Int { 128 * r * n * p }

    /// The most scrypt work one import may spend over all of a file's slots: four slots at
    /// Aegis's cost (N=2^15, r=8, p=1), so a hostile file ends in well under a second.
    static let importWorkBudget = 128 << 20

    /// Memory scrypt needs, with headroom, for BoringSSL's limit.
    var memoryLimit: Int { 128 * r * (n + p + 2) + (1 << 20) }
}
