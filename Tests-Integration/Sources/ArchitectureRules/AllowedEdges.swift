/// The allowed dependencies, written down once. Change an edge here, in the manifests and in
/// ARCHITECTURE.md's module graph together; the rules check that all three agree.
public enum AllowedEdges {
    /// Local packages each package depends on, by `.package(path:)`: exactly these.
    public static let local: [String: Set<String>] = [
        "Domain": [],
        "Data": ["Domain"],
        "Presentation": ["Domain"],
        "App": ["Domain", "Data", "Presentation"],
        "Tests-Integration": ["App", "Domain", "Data", "Presentation"],
    ]

    /// Remote packages each package may depend on.
    public static let remote: [String: Set<String>] = [
        "Domain": [],
        "Data": [
            "swift-crypto", "GRDB.swift", "swift-protobuf", "postgres-nio", "swift-log", "swift-openapi-runtime", "swift-http-types",
            "async-http-client", "swift-nio-ssl", "swift-nio", "swift-metrics",
        ],
        "Presentation": [
            "hummingbird", "swift-openapi-hummingbird", "swift-openapi-runtime", "swift-log", "swift-service-lifecycle", "swift-nio",
            "swift-nio-extras", "swift-metrics",
        ],
        "App": [
            "swift-configuration", "swift-log", "swift-system", "hummingbird", "swift-service-lifecycle", "swift-nio-ssl",
            "swift-metrics", "swift-prometheus", "swift-nio",
        ],
        "Tests-Integration": [],
    ]

    /// Modules Domain's sources may import.
    public static let domainImports: Set<String> = ["Foundation", "FoundationEssentials"]
    /// Modules the view-model target may import.
    public static let viewModelImports: Set<String> = [
        "Domain", "Foundation", "FoundationEssentials", "Observation", "Synchronization",
    ]
    /// The modules of the Data layer and the libraries only it may use.
    public static let dataModules: Set<String> = [
        "DataLayer", "SyncServerData", "SyncRemoteData", "SyncRecordCoding", "CKeyring", "DataTestSupport", "Crypto", "CryptoExtras",
        "_CryptoExtras", "GRDB", "SwiftProtobuf", "PostgresNIO",
        "AsyncHTTPClient",
    ]
    /// The modules of the App layer.
    public static let appModules: Set<String> = [
        "AppComposition", "AppConfiguration", "SyncComposition", "ServerComposition", "CProcessControl", "tokens", "tokens_server",
        "CommandLineKit", "Configuration",
    ]
    /// The sync server's folders (one target per layer) and the modules they make.
    /// App's server targets share only `AppConfiguration` (settings, logs) with the client's.
    public static let serverFolders = [
        "Domain/Sources/SyncServer", "Data/Sources/SyncServerData", "Presentation/Sources/SyncServerHTTP",
        "App/Sources/ServerComposition", "App/Sources/tokens-server",
    ]
    public static let serverModules: Set<String> = ["SyncServer", "SyncServerData", "SyncServerHTTP", "ServerComposition"]
    /// The client's folders (what the `tokens` executable is made of below App) and modules.
    public static let clientFolders = [
        "Domain/Sources/Domain", "Data/Sources/DataLayer", "Presentation/Sources/Presentation",
        "Presentation/Sources/TerminalUI", "App/Sources/AppComposition", "App/Sources/tokens", "Data/Sources/SyncRemoteData",
        "Data/Sources/SyncRecordCoding", "Data/Sources/CKeyring", "App/Sources/SyncComposition",
    ]
    public static let clientModules: Set<String> = [
        "Domain", "DataLayer", "SyncRemoteData", "SyncRecordCoding", "CKeyring", "Presentation", "TerminalUI", "AppComposition",
        "SyncComposition",
    ]
    /// The modules of the Presentation layer.
    public static let presentationModules: Set<String> = ["Presentation", "TerminalUI", "SyncServerHTTP"]
}
