import Foundation

/// Tests-Integration/Load/sync.pgbench: one pgbench script per workload of the sync API, each the
/// SQL the server runs for one request of it.
public struct PgbenchScript: Sendable {
    /// Each workload's section, as pgbench reads it.
    public let sections: [String: String]

    public init(text: String) {
        var sections: [String: String] = [:]
        var current: String?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("-- workload: ") {
                current = String(line.dropFirst("-- workload: ".count))
                sections[current!] = ""
            } else if let name = current {
                sections[name, default: ""] += line + "\n"
            }
        }
        self.sections = sections
    }

    /// The file in the repository at `root`.
    public init(repository root: URL) throws {
        self.init(text: try String(contentsOf: Self.file(in: root), encoding: .utf8))
    }

    public static func file(in root: URL) -> URL {
        root.appendingPathComponent("Tests-Integration/Load/sync.pgbench")
    }

    /// The SQL a workload's clients run on every transaction, in order, as the server's texts
    /// are written: whitespace collapsed, each pgbench `:variable` as `$1`, `$2`… in order of
    /// first use within its statement. The set-up between `\if` and `\endif` is left out.
    public func statements(of workload: String) -> [String] {
        guard let section = sections[workload] else { return [] }
        var kept = ""
        var inSetUp = false
        for line in section.split(separator: "\n") {
            let text = line.trimmingCharacters(in: .whitespaces)
            if text.hasPrefix("\\if") { inSetUp = true }
            if text.hasPrefix("\\endif") {
                inSetUp = false
                continue
            }
            if inSetUp || text.hasPrefix("--") || text.hasPrefix("\\set") { continue }
            kept += text + "\n"
        }
        // A command ends at ";" or at "\gset" (which stores the row in variables, their names
        // after the prefix that may follow it).
        let commands = kept.replacingOccurrences(of: #"\\gset( \w+)?"#, with: ";", options: .regularExpression).split(separator: ";")
        return commands.map { Self.numbered(Self.collapsed(String($0))) }.filter { !$0.isEmpty }
    }

    /// `sql` with runs of whitespace as one space, trimmed.
    public static func collapsed(_ sql: String) -> String {
        sql.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// pgbench's `:name` placeholders as `$1`, `$2`… (a cast's `::` is not one). `ARRAY[:name]`
    /// counts as the server's array parameter: pgbench's variables are numbers or fixed strings,
    /// so an array of one that changes from one transaction to the next is built from a number.
    static func numbered(_ sql: String) -> String {
        var names: [String] = []
        var result = ""
        var characters = sql.replacingOccurrences(of: #"ARRAY\[(:\w+)\]"#, with: "$1", options: .regularExpression)[...]
        while let first = characters.first {
            characters = characters.dropFirst()
            if first == ":", characters.first == ":" {
                result += "::"
                characters = characters.dropFirst()
            } else if first == ":", let next = characters.first, next.isLetter || next == "_" {
                let name = String(characters.prefix { $0.isLetter || $0.isNumber || $0 == "_" })
                characters = characters.dropFirst(name.count)
                if !names.contains(name) { names.append(name) }
                result += "$\(names.firstIndex(of: name)! + 1)"
            } else {
                result.append(first)
            }
        }
        return result
    }
}
