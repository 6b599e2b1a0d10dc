/// The list screen's keys as `?` shows them (and README's key table): what each does, in the
/// order a new user needs them. The footer's hint is a prefix of these that fits, always
/// ending with `? help` and `q quit`.
public enum ListKeys {
    /// One key (or several that do the same) and what it does.
    public struct Entry: Equatable, Sendable {
        public let keys: String
        public let action: String
        /// The footer's short form ("a add"); nil: only in the overlay.
        public let hint: String?

        public init(_ keys: String, _ action: String, hint: String? = nil) {
            self.keys = keys
            self.action = action
            self.hint = hint
        }
    }

    /// The keys of the list: `s` only where the vault syncs, `l` only where it can be locked.
    public static func entries(syncs: Bool, canLock: Bool) -> [Entry] {
        var entries = [
            Entry("/", "search by issuer, account or note; Enter keeps the filter, Esc clears it", hint: "/ search"),
            Entry("Enter, c", "copy the code (an HOTP account makes its next code first)", hint: "Enter copy"),
            Entry("n", "an HOTP account's next code (the shown #N is the counter it used)"),
        ]
        if syncs { entries.append(Entry("s", "sync now", hint: "s sync")) }
        entries += [
            Entry("a, +", "add an account", hint: "a add"),
            Entry("e, →", "the account's details: edit it", hint: "e edit"),
            Entry("f", "favourite or not", hint: "f fav"),
            Entry("J, K", "move the account down or up", hint: "J/K move"),
            Entry("d, then y", "delete; u undoes it while the screen is open", hint: "d delete"),
            Entry("↑ ↓, k j", "move the cursor"),
        ]
        if canLock { entries.append(Entry("l", "lock now", hint: "l lock")) }
        entries += [Entry("?", "this help; any key closes it"), Entry("q, Esc, Ctrl-C", "quit")]
        return entries
    }

    /// The footer's hint for `width` columns: as many of `entries`' hints as fit, then
    /// `? help · q quit`, which always show.
    public static func hint(_ entries: [Entry], width: Int) -> String {
        let tail = "? help · q quit"
        var hint = ""
        for short in entries.compactMap(\.hint) {
            let longer = hint.isEmpty ? short : hint + " · " + short
            guard longer.count + 3 + tail.count <= width else { break }
            hint = longer
        }
        return hint.isEmpty ? tail : hint + " · " + tail
    }
}
