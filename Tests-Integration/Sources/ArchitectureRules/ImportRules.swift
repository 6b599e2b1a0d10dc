/// A rule over the imports of the Swift files under some folders.
struct ImportRule: ArchitectureRule {
    let number: Int
    let title: String
    /// Folders (relative to the root) whose files the rule applies to.
    let folders: [String]
    /// Either the only modules allowed, or the modules forbidden.
    let allowed: Set<String>?
    let forbidden: Set<String>

    func check(_ repository: Repository) throws -> [Violation] {
        var violations: [Violation] = []
        for folder in folders {
            for file in repository.sources(under: folder) {
                for entry in file.imports {
                    let isAllowed = allowed.map { $0.contains(entry.module) } ?? true
                    if !isAllowed || forbidden.contains(entry.module) {
                        violations.append(Violation("\(file.path):\(entry.line)", "imports \(entry.module)"))
                    }
                }
            }
        }
        return violations
    }
}

extension ImportRule {
    /// Rule 3.
    static let domainImportsOnlyFoundation = ImportRule(
        number: 3, title: "Domain sources (the client's and the server's targets) import only Foundation",
        folders: ["Domain/Sources"],
        allowed: AllowedEdges.domainImports, forbidden: [])
    /// Rule 4.
    static let viewModelsImportOnlyDomain = ImportRule(
        number: 4, title: "the view-model target imports only Domain, Foundation, Observation, Synchronization",
        folders: ["Presentation/Sources/Presentation"], allowed: AllowedEdges.viewModelImports, forbidden: [])
    /// Rule 5.
    static let terminalUIImportsNoData = ImportRule(
        number: 5, title: "TerminalUI imports no Data (nor App)", folders: ["Presentation/Sources/TerminalUI"],
        allowed: nil, forbidden: AllowedEdges.dataModules.union(AllowedEdges.appModules))
    /// Rule 6.
    static let dataImportsNoOuterLayer = ImportRule(
        number: 6, title: "Data imports no Presentation or App", folders: ["Data/Sources"],
        allowed: nil, forbidden: AllowedEdges.presentationModules.union(AllowedEdges.appModules))
    /// Rule 15.
    static let serverHTTPImportsNoData = ImportRule(
        number: 15, title: "the server's HTTP target imports no Data (nor App)", folders: ["Presentation/Sources/SyncServerHTTP"],
        allowed: nil, forbidden: AllowedEdges.dataModules.union(AllowedEdges.appModules))
}
