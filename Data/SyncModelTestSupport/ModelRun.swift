import DataLayer
import Domain
import DomainTestSupport
import Foundation

/// Runs one history on fresh machines and one server, syncs every machine to quiescence, and
/// returns what the oracle (ModelLedger) and the convergence check found.
public struct ModelRun: Sendable {
    public let machineCount: Int
    /// The in-memory server's page size (the real server's is its own).
    public let pageSize: Int

    public init(machineCount: Int, pageSize: Int) {
        self.machineCount = machineCount
        self.pageSize = pageSize
    }

    /// The problems found, in words; empty when the history kept every promise.
    public func problems(in history: [ModelStep], on server: any ModelServer) async throws -> [String] {
        var machines: [ModelMachine] = []
        for index in 0..<machineCount { machines.append(try await ModelMachine(index: index, server: server)) }
        var ledger = ModelLedger()
        var next = 0
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        for machine in machines {
            machine.tick(start)
            try await machine.join()
        }
        for (step, action) in history.enumerated() {
            let now = start.addingTimeInterval(Double(step + 1) * 7)
            for machine in machines { machine.tick(now) }
            switch action {
            case .add(let m, let hotp):
                next += 1
                try await change(machines[m], &ledger) { try await $0.source.insert(Self.account(next, hotp: hotp, now: now)) }
                ledger.add(Self.accountID(next))
            case .addTwice(let m, let o) where m != o:
                next += 1
                let secret = next
                for machine in [machines[m], machines[o]] {
                    next += 1
                    let id = next
                    try await change(machine, &ledger) {
                        try await $0.source.insert(Self.account(id, secret: secret, hotp: false, now: now))
                    }
                    ledger.add(Self.accountID(id), twin: true)
                }
            case .addTwice: break
            case .edit(let m, let pick, let field):
                try await modify(machines[m], pick, &ledger) { account in
                    let text = "\(ModelStep.fields[field % ModelStep.fields.count]) \(step)"
                    switch field % ModelStep.fields.count {
                    case 0: account.issuer = text
                    case 1: account.name = text
                    case 2: account.note = text
                    case 3: account.isFavorite.toggle()
                    default: account.groups = account.groups.contains("a") ? ["b \(step)"] : ["a", "c \(step)"]
                    }
                }
            case .changeSecret(let m, let pick):
                next += 1
                let secret = Self.secret(next)
                try await modify(machines[m], pick, &ledger) { $0.secret = secret }
            case .useCode(let m, let pick, let steps):
                try await modify(machines[m], pick, &ledger) { account in
                    if case .hotp(let counter) = account.kind { account.kind = .hotp(counter: counter + UInt64(steps)) }
                }
            case .delete(let m, let pick):
                guard let id = try await target(machines[m], pick) else { break }
                try await change(machines[m], &ledger) { _ = try await $0.source.remove(id: id) }
            case .reorder(let m, let pick):
                guard let id = try await target(machines[m], pick) else { break }
                try await change(machines[m], &ledger) { try await $0.source.reorder([id]) }
            case .sync(let m):
                _ = try await machines[m].sync()
            case .offline(let m, let off):
                machines[m].link.state.withLock { $0.online = !off }
            case .leave(let m):
                try await machines[m].leave()
            case .join(let m):
                try await machines[m].join()
            case .revoke(let m, let by):
                guard let device = try await machines[m].store.status().membership?.enrolment.deviceID else { break }
                // `tokens sync revoke` needs the server: from a machine offline or outside the
                // account, another one (not modelled) revokes without a new key.
                let revoker = machines[by]
                let online = revoker.link.state.withLock { $0.online }
                try await server.revoke(device)
                if by != m, online, let membership = try await revoker.store.status().membership,
                    !server.isRevoked(membership.enrolment.deviceID)
                {
                    try await revoker.store.replace(with: membership, resend: true)
                    _ = try await revoker.sync()
                }
            case .copyVault(let m):
                try machines[m].copyVault()
            case .restoreVault(let m):
                try machines[m].restoreVault()
                ledger.keepHeld(by: try await holders(machines, server))
            case .backupServer:
                try await server.backup()
                ledger.backedUp()
            case .restoreServer:
                guard try await server.restore() else { break }
                ledger.recallParked()
                ledger.keepHeld(by: try await holders(machines, server))
            case .skewClock(let m, let seconds):
                machines[m].skew = TimeInterval(seconds)
            case .changePassphrase(let m):
                try machines[m].changePassphrase()
            case .poison(let pick):
                guard let hostile = server.hostile else { break }
                if let id = await Self.stored(pick, on: hostile) {
                    await hostile.poison(id)
                    ledger.loseOnServer(id)
                }
                // What only the server held is gone with it (nothing can bring it back).
                ledger.keepHeld(by: try await holders(machines, server))
            case .dropNextPush:
                await server.hostile?.dropNextPush()
            case .omit(let m, let pick):
                // A machine that never saw an entry cannot tell it was left out: the omission is
                // of one this machine holds, in the resync the server forces on it.
                guard let hostile = server.hostile else { break }
                let held = try machines[m].records()
                let stored = await hostile.stored.filter { held[$0.record.id] != nil }
                guard !stored.isEmpty else { break }
                await hostile.omitInNextResync(stored[pick % stored.count].record.id)
                _ = try await machines[m].sync()
                await hostile.omitInNextResync(nil)
            case .replay(let pick):
                guard let hostile = server.hostile else { break }
                if let id = await Self.stored(pick, on: hostile) {
                    await hostile.replayFirstVersion(of: id)
                    ledger.loseOnServer(id)
                }
                // What only the server held of that entry is gone with the replay.
                ledger.keepHeld(by: try await holders(machines, server))
            case .newerField(let m, let pick):
                guard let id = try await target(machines[m], pick) else { break }
                try await change(machines[m], &ledger) {
                    try $0.vault.setNewerField(ModelCheck.newerField, to: "step \(step)", on: id, now: $0.clock.now())
                }
            case .replayMadeUp(let pick, let ahead):
                guard let hostile = server.hostile else { break }
                // Ahead of the server's own head: the highest stored entry's sequence is below it when
                // the last write was garbage (stored apart), and a "made-up" sequence equal to a real
                // one is a server serving two entries under one sequence, which no page protocol
                // survives (a page may end between them).
                if let id = await Self.stored(pick, on: hostile) { await hostile.replayFirstVersion(of: id, aheadOfHead: Int64(ahead)) }
            }
            for machine in machines {
                let forgetting = if case .restoreVault(machine.index) = action { true } else { false }
                ledger.observe(machine: machine.index, records: try machine.records(), forgetting: forgetting)
            }
        }
        return try await settle(machines, server, ledger, at: start.addingTimeInterval(Double(history.count + 1) * 7))
    }

    /// Every machine back online and a member, synced until nothing moves; then the checks.
    private func settle(_ machines: [ModelMachine], _ server: any ModelServer, _ ledger: ModelLedger, at now: Date) async throws -> [String]
    {
        for machine in machines {
            machine.tick(now)
            machine.link.state.withLock { $0.online = true }
            try await machine.join()
        }
        var quiet = false
        for _ in 0..<8 where !quiet {
            quiet = true
            for machine in machines {
                let report = try await machine.sync()
                let pending = try await machine.store.status().pending
                if report == nil || report!.received + report!.sent + report!.resent > 0 || pending > 0 { quiet = false }
            }
        }
        guard quiet else { return ["the machines never stopped exchanging changes (8 rounds)"] }
        var problems: [String] = []
        let final = try machines[0].records()
        let content = try await machines[0].content()
        for machine in machines.dropFirst() {
            if try machine.records() != final { problems.append("M\(machine.index)'s records differ from M0's") }
            if try await machine.content() != content { problems.append("M\(machine.index)'s accounts differ from M0's") }
        }
        if try await Set(server.stored().map(\.record)) != Set(final.values) {
            problems.append("the server's entries differ from the machines'")
        }
        // TOKENS_MODEL_DEBUG=1 prints each record that differs from M0's, and what the server holds.
        if ProcessInfo.processInfo.environment["TOKENS_MODEL_DEBUG"] != nil, !problems.isEmpty {
            for machine in machines {
                for record in try machine.records().values.sorted(by: { $0.id.uuidString < $1.id.uuidString })
                where record != final[record.id] {
                    print("M\(machine.index): \(record)\n  M0: \(String(describing: final[record.id]))")
                }
            }
            print(
                "server:",
                try await server.stored().map {
                    "\($0.record.id.uuidString.suffix(4))@\($0.sequence) v\($0.version) del=\($0.record.isDeleted.value)"
                })
        }
        return problems + ledger.violations(in: final)
    }

    /// The entry a fault step picks among those the server stores (`pick` wraps); nil when it
    /// stores none.
    private static func stored(_ pick: Int, on hostile: InMemorySyncRemote) async -> UUID? {
        let stored = await hostile.stored
        return stored.isEmpty ? nil : stored[pick % stored.count].record.id
    }

    /// Who holds data now: every machine's journal and the server.
    private func holders(_ machines: [ModelMachine], _ server: any ModelServer) async throws -> [[UUID: SyncRecord]] {
        var holders = try machines.map { try $0.records() }
        holders.append(Dictionary(try await server.stored().map { ($0.record.id, $0.record) }) { first, _ in first })
        return holders
    }

    /// Runs a local change and records, from the journal, the writes it made.
    private func change(_ machine: ModelMachine, _ ledger: inout ModelLedger, _ body: (ModelMachine) async throws -> Void) async throws {
        let before = try machine.records()
        try await body(machine)
        let after = try machine.records()
        for (id, record) in after where before[id] != record {
            ledger.record(before: before[id], after: record, machine: machine.index)
        }
    }

    private func modify(
        _ machine: ModelMachine, _ pick: Int, _ ledger: inout ModelLedger, _ edit: @escaping @Sendable (inout Account) -> Void
    ) async throws {
        guard let id = try await target(machine, pick) else { return }
        try await change(machine, &ledger) { _ = try await $0.source.modify(id: id, edit) }
    }

    /// The live account `pick` chooses on this machine, if it has any.
    private func target(_ machine: ModelMachine, _ pick: Int) async throws -> UUID? {
        let accounts = try await machine.source.fetchAll()
        return accounts.isEmpty ? nil : accounts[pick % accounts.count].id
    }

    static func accountID(_ n: Int) -> UUID { UUID(uuidString: String(format: "00000000-0000-4000-9000-%012d", n))! }
    static func secret(_ n: Int) -> Secret { Secret(bytes: Array("model secret \(n)".utf8)) }

    static func account(_ n: Int, secret: Int? = nil, hotp: Bool, now: Date) -> Account {
        Account(
            id: accountID(n), issuer: "Issuer \(n)", name: "user\(n)", secret: Self.secret(secret ?? n),
            kind: hotp ? .hotp(counter: 0) : .totp(period: 30), createdAt: now, updatedAt: now)
    }
}
