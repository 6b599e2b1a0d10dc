/// The user's order of accounts: one rule for every store.
public enum AccountOrder {
    /// `current` in the order `given` asks for: the elements given first, in that order, then the
    /// others in their current order. A key given twice counts once; keys not in `current` are
    /// ignored.
    public static func reordered<Element, Key: Hashable>(
        _ current: [Element], by given: [Key], key: (Element) -> Key
    ) -> [Element] {
        var remaining = Dictionary(current.map { (key($0), $0) }, uniquingKeysWith: { first, _ in first })
        let first = given.compactMap { remaining.removeValue(forKey: $0) }
        return first + current.filter { remaining[key($0)] != nil }
    }
}
