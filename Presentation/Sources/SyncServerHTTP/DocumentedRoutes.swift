/// The API document's paths and the methods each takes, read from the embedded document (so
/// the code keeps no second list): a request to a known path with another method is answered
/// 405 with `Allow`, not 404.
enum DocumentedRoutes {
    /// Path templates under the server URL (`/accounts/{accountId}/devices`) and their methods.
    static let methods: [String: Set<String>] = read(apiDocument)

    /// Reads `paths:` of the document as written in Domain/OpenAPI: a path two spaces in, its
    /// methods four spaces in.
    static func read(_ document: String) -> [String: Set<String>] {
        var routes: [String: Set<String>] = [:]
        var inPaths = false
        var current: String?
        for line in document.split(separator: "\n", omittingEmptySubsequences: false) {
            if !line.hasPrefix(" ") {
                inPaths = line == "paths:"
                current = nil
                continue
            }
            guard inPaths else { continue }
            if line.hasPrefix("  /"), line.hasSuffix(":") {
                current = String(line.dropFirst(2).dropLast())
                routes[current!] = []
            } else if let path = current, line.hasPrefix("    "), !line.hasPrefix("     "), line.hasSuffix(":") {
                let method = line.trimmingCharacters(in: .whitespaces).dropLast().uppercased()
                if ["GET", "PUT", "POST", "DELETE", "PATCH", "HEAD", "OPTIONS"].contains(method) { routes[path]?.insert(method) }
            }
        }
        return routes
    }

    /// The methods the documented path matching `path` takes; nil when no path matches.
    static func allowed(for path: String) -> Set<String>? {
        let segments = path.split(separator: "/", omittingEmptySubsequences: true)
        for (template, methods) in methods {
            let parts = template.split(separator: "/", omittingEmptySubsequences: true)
            guard parts.count == segments.count else { continue }
            if zip(parts, segments).allSatisfy({ $0.hasPrefix("{") || $0 == $1 }) { return methods }
        }
        return nil
    }
}
