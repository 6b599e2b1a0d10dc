import Domain
import Foundation

extension AegisDatabaseDTO {
    /// Domain entries, with what Tokens cannot keep reported.
    func collect(into collector: inout InteropCollector) {
        let groupNames = Dictionary((groups ?? []).map { ($0.uuid, $0.name) }, uniquingKeysWith: { first, _ in first })
        for (index, entry) in entries.enumerated() {
            if entry.icon != nil { collector.lose("icon") }
            if entry.info.pin != nil { collector.lose("PIN") }
            var fields = InteropCollector.Fields()
            fields.issuer = entry.issuer ?? ""
            fields.name = entry.name ?? ""
            fields.secretBase32 = entry.info.secret
            fields.kind = .init(text: entry.type)
            fields.algorithm = .init(text: entry.info.algo ?? "SHA1")
            fields.digits = entry.info.digits ?? 6
            fields.period = entry.info.period ?? OTPKind.defaultPeriod
            fields.counter = entry.info.counter ?? 0
            fields.note = entry.note ?? ""
            fields.isFavorite = entry.favorite ?? false
            fields.groups = (entry.groups ?? []).compactMap { groupNames[$0] } + [entry.group].compactMap { $0 }
            collector.add(fields, position: "entry \(index + 1)")
        }
    }

    /// The Aegis database of Domain accounts (database version 3, with groups).
    init(_ accounts: [Account], random: any RandomSource) {
        var groupIDs: [String: String] = [:]
        var groups: [Group] = []
        for name in accounts.flatMap(\.groups) where groupIDs[name] == nil {
            groupIDs[name] = random.uuid().uuidString.lowercased()
            groups.append(Group(uuid: groupIDs[name]!, name: name))
        }
        self.init(
            version: 3,
            entries: accounts.map { account in
                Entry(
                    type: account.kind.typeName, uuid: account.id.uuidString.lowercased(), name: account.name,
                    issuer: account.issuer, note: account.note, favorite: account.isFavorite, icon: nil, group: nil,
                    groups: account.groups.compactMap { groupIDs[$0] },
                    info: Info(
                        secret: account.secret.base32, algo: account.algorithm.rawValue, digits: account.digits,
                        period: account.kind.period, counter: account.counter, pin: nil))
            }, groups: groups)
    }
}
