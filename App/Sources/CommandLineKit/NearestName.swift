/// The known name a mistyped one most likely meant, by edit distance: for "did you mean" hints
/// on commands and config keys.
public enum NearestName {
    /// The candidate nearest to `name`, if it is near enough to be a typo (at most a third of
    /// the name's letters, and at least 2, differ).
    public static func of(_ name: String, among candidates: [String]) -> String? {
        guard let nearest = candidates.min(by: { distance($0, name) < distance($1, name) }) else { return nil }
        return distance(nearest, name) <= max(2, name.count / 3) ? nearest : nil
    }

    /// Levenshtein's edit distance.
    public static func distance(_ a: String, _ b: String) -> Int {
        let (a, b) = (Array(a), Array(b))
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
