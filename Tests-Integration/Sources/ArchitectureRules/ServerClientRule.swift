/// Rule 14: the sync server's targets and the client's targets do not import each other, in
/// any layer: the server can be deployed, tested and owned apart from the app, and the app
/// never links server code.
public struct ServerAndClientApart: ArchitectureRule {
    public let number = 14
    public let title = "server targets import no client target, and client targets no server target"
    public init() {}

    public func check(_ repository: Repository) throws -> [Violation] {
        let server = ImportRule(
            number: number, title: title, folders: AllowedEdges.serverFolders, allowed: nil,
            forbidden: AllowedEdges.clientModules)
        let client = ImportRule(
            number: number, title: title, folders: AllowedEdges.clientFolders, allowed: nil,
            forbidden: AllowedEdges.serverModules)
        return try server.check(repository) + client.check(repository)
    }
}
