import DomainTestSupport
import Foundation

/// One step of a simulated history. Targets are picked when the step runs (`pick` indexes the
/// live accounts the machine has then), so a history shrunk by removing steps still runs.
public enum ModelStep: Hashable, Sendable, CustomStringConvertible {
    case add(machine: Int, hotp: Bool)
    /// The same new account added on two machines before either syncs.
    case addTwice(machine: Int, other: Int)
    case edit(machine: Int, pick: Int, field: Int)
    case changeSecret(machine: Int, pick: Int)
    case useCode(machine: Int, pick: Int, steps: Int)
    case delete(machine: Int, pick: Int)
    case reorder(machine: Int, pick: Int)
    case sync(machine: Int)
    case offline(machine: Int, Bool)
    /// `sync leave`, and `sync join` again with the same code (a new device on the server).
    case leave(machine: Int)
    case join(machine: Int)
    /// Machine `by` revokes this one (`tokens sync revoke`): the sync key is replaced, so `by`
    /// sends every entry it holds again (under the new key); the revoked machine's next sync is
    /// refused, and it leaves and joins again (with the new code).
    case revoke(machine: Int, by: Int)
    case copyVault(machine: Int)
    /// The vault replaced by the copy taken last (a backup restored, or an old disk).
    case restoreVault(machine: Int)
    case backupServer
    /// The server's data replaced by the backup taken last: its sequences go back.
    case restoreServer
    /// The machine's clock runs off by this many seconds.
    case skewClock(machine: Int, seconds: Int)
    case changePassphrase(machine: Int)
    /// Any holder of a device token replaces an entry with garbage nobody can open.
    case poison(pick: Int)
    /// The server acknowledges the next push and stores nothing of it.
    case dropNextPush
    /// The machine syncs with a server that answers its pull with 410 and leaves one of the
    /// entries the machine holds out of the full resync.
    case omit(machine: Int, pick: Int)
    /// The server serves the entry's first version again as its current one, under a new sequence.
    case replay(pick: Int)
    /// The next pull also serves the entry's first version, at a sequence past the head the server
    /// made up (stored nowhere).
    case replayMadeUp(pick: Int, ahead: Int)
    /// The machine, on a newer build of Tokens, sets a field only that build knows (`archived`)
    /// on an entry; the others keep it whole (never drawn by `history`: ModelCheck inserts it).
    case newerField(machine: Int, pick: Int)

    public var description: String {
        switch self {
        case .add(let m, let hotp): "M\(m) add\(hotp ? " (HOTP)" : "")"
        case .addTwice(let m, let o): "M\(m) and M\(o) add the same account"
        case .edit(let m, let pick, let field): "M\(m) edit #\(pick) \(ModelStep.fields[field % ModelStep.fields.count])"
        case .changeSecret(let m, let pick): "M\(m) change the secret of #\(pick)"
        case .useCode(let m, let pick, let steps): "M\(m) use \(steps) HOTP code(s) of #\(pick)"
        case .delete(let m, let pick): "M\(m) delete #\(pick)"
        case .reorder(let m, let pick): "M\(m) move #\(pick) first"
        case .sync(let m): "M\(m) sync"
        case .offline(let m, let off): "M\(m) \(off ? "goes offline" : "comes back online")"
        case .leave(let m): "M\(m) sync leave"
        case .join(let m): "M\(m) sync join"
        case .revoke(let m, let by): "M\(m) revoked by M\(by), which replaces the sync key"
        case .copyVault(let m): "M\(m) copies its vault"
        case .restoreVault(let m): "M\(m) restores its vault from the copy"
        case .backupServer: "server backed up"
        case .restoreServer: "server restored from the backup"
        case .skewClock(let m, let seconds): "M\(m) clock off by \(seconds) s"
        case .changePassphrase(let m): "M\(m) passwd"
        case .poison(let pick): "the server's entry #\(pick) replaced by garbage"
        case .dropNextPush: "the server acknowledges the next push and keeps nothing"
        case .omit(let m, let pick): "M\(m) syncs; the server forces a resync and leaves M\(m)'s entry #\(pick) out of it"
        case .replay(let pick): "the server serves entry #\(pick)'s first version again"
        case .replayMadeUp(let pick, let ahead): "the server serves entry #\(pick)'s first version at a made-up sequence, head + \(ahead)"
        case .newerField(let m, let pick): "M\(m), on a newer build, sets #\(pick)'s archived field"
        }
    }

    static let fields = ["issuer", "name", "note", "favorite", "groups"]

    /// A random history of `length` steps over `machines` machines.
    public static func history(seed: UInt64, machines: Int, length: Int) -> [ModelStep] {
        var random = SplitMix(seed: seed)
        func machine() -> Int { Int.random(in: 0..<machines, using: &random) }
        func pick() -> Int { Int.random(in: 0..<64, using: &random) }
        let skews = [-86_400, -3_600, -300, -60, 0, 0, 60, 300, 3_600, 86_400]
        return (0..<length).map { _ in
            switch Int.random(in: 0..<103, using: &random) {
            case 0..<10: .add(machine: machine(), hotp: Bool.random(using: &random))
            case 10..<13: .addTwice(machine: machine(), other: machine())
            case 13..<31: .edit(machine: machine(), pick: pick(), field: Int.random(in: 0..<fields.count, using: &random))
            case 31..<34: .changeSecret(machine: machine(), pick: pick())
            case 34..<40: .useCode(machine: machine(), pick: pick(), steps: Int.random(in: 1...3, using: &random))
            case 40..<45: .delete(machine: machine(), pick: pick())
            case 45..<48: .reorder(machine: machine(), pick: pick())
            case 48..<72: .sync(machine: machine())
            case 72..<76: .offline(machine: machine(), Bool.random(using: &random))
            case 76..<79: .leave(machine: machine())
            case 79..<82: .join(machine: machine())
            case 82..<84: .revoke(machine: machine(), by: machine())
            case 84..<87: .copyVault(machine: machine())
            case 87..<89: .restoreVault(machine: machine())
            case 89..<92: .backupServer
            case 92..<94: .restoreServer
            case 94..<96: .skewClock(machine: machine(), seconds: skews.randomElement(using: &random)!)
            case 96: .poison(pick: pick())
            case 97: .dropNextPush
            case 98: .omit(machine: machine(), pick: pick())
            case 99: .replay(pick: pick())
            case 100: .replayMadeUp(pick: pick(), ahead: Int.random(in: 1...50, using: &random))
            default: .changePassphrase(machine: machine())
            }
        }
    }
}
