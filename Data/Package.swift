// swift-tools-version: 6.2
// Data: the implementations of Domain's ports (crypto, stores, repositories, system clock and
// randomness, the encrypted vault). It depends on Domain and on libraries, never on Presentation or App.
import PackageDescription

let package = Package(
    name: "Data",
    platforms: [.macOS(.v15)],
    products: [
        // The module is DataLayer: a module named Data would shadow Foundation's Data type.
        .library(name: "DataLayer", targets: ["DataLayer"]),
        // The sync server's stores and crypto; the client's targets never import it (rule 14).
        .library(name: "SyncServerData", targets: ["SyncServerData"]),
        // The sync client's remote: the client generated from the API document, over a transport
        // App chooses, and the sync crypto; apart from DataLayer so that a program links the
        // HTTP client only where sync is wired.
        .library(name: "SyncRemoteData", targets: ["SyncRemoteData"]),
        // Fakes of Data's own ports, for tests of Data and App; in no program.
        .library(name: "DataTestSupport", targets: ["DataTestSupport"]),
        // The sync lifecycle model check (machines with real vaults, the oracle, the shrinking),
        // run against the in-memory server here and the real server in Tests-Integration.
        .library(name: "SyncModelTestSupport", targets: ["SyncModelTestSupport"]),
    ],
    dependencies: [
        .package(path: "../Domain"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-protobuf", from: "1.39.0"),
        // The sync server's store only (target SyncServerData); the app never links them.
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.0"),
        // The server store's own metrics (calls in flight, errors by kind), through swift-metrics'
        // API: App chooses the backend (Prometheus), as it chooses swift-log's.
        .package(url: "https://github.com/apple/swift-metrics", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.0.0"),
        // The sync client's HTTP (target SyncRemoteData): AsyncHTTPClient under the generated
        // client (through our own transport, which sends each body whole), and NIOSSL's error
        // types to tell an untrusted certificate from a network failure.
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
    ],
    targets: [
        // A sync record's encoded form, shared by the vault's sync state (DataLayer) and the
        // wire (SyncRemoteData) at package access, so neither imports the other.
        .target(
            name: "SyncRecordCoding",
            dependencies: [.product(name: "Domain", package: "Domain")]
        ),
        // The kernel keyring's system calls (variadic, so not callable from Swift).
        .target(name: "CKeyring"),
        // adjtimex(2), whether the system clock is kept synchronised (struct timex is not imported).
        .target(name: "CTimeSync"),
        // memmem(3), a search through bytes (a GNU extension the Glibc module does not import).
        .target(name: "CByteSearch"),
        // AES-256-GCM opening with one key schedule for many entries: BoringSSL as swift-crypto
        // links it (its prefixed symbols, declared in the target; the contract tests hold it to
        // AES.GCM).
        .target(name: "CEntryAEAD"),
        // sqlite3_config(3), SQLite's process-wide settings (variadic, so not callable from Swift).
        .target(name: "CSQLiteSettings", dependencies: [.product(name: "GRDBSQLite", package: "GRDB.swift")]),
        // QR codes read from pictures: zbar with libpng and libjpeg, each from its static archive
        // (Debian's -dev packages), in every build, so that tests link what the static release
        // binary does and no build needs zbar's shared library and what it pulls (D-Bus, X11,
        // video). `dbus_stubs.c` stands in for the D-Bus calls zbar's scanner makes only on request.
        .target(
            name: "CPictureScan",
            linkerSettings: [
                .linkedLibrary(":libzbar.a"), .linkedLibrary(":libpng16.a"), .linkedLibrary(":libjpeg.a"),
                .linkedLibrary(":libz.a"), .linkedLibrary("m"),
            ]
        ),
        .target(
            name: "DataLayer",
            dependencies: [
                "SyncRecordCoding",
                "CKeyring",
                "CTimeSync",
                "CByteSearch",
                "CEntryAEAD",
                "CSQLiteSettings",
                "CPictureScan",
                .product(name: "Domain", package: "Domain"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "GRDB", package: "GRDB.swift"),
                // SQLite's C API, for the vault's read path (GRDB is built on the same library).
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ]
        ),
        .target(name: "DataTestSupport", dependencies: ["DataLayer"], path: "TestSupport"),
        .target(
            name: "SyncModelTestSupport",
            dependencies: [
                "DataLayer",
                "SyncRemoteData",
                .product(name: "Domain", package: "Domain"),
                .product(name: "DomainTestSupport", package: "Domain"),
            ],
            path: "SyncModelTestSupport"
        ),
        .testTarget(
            name: "DataLayerTests",
            dependencies: [
                "DataLayer",
                "DataTestSupport",
                "SyncModelTestSupport",
                .product(name: "Domain", package: "Domain"),
                .product(name: "DomainTestSupport", package: "Domain"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            // Vaults made by the last builds of formats 1 and 2, to test the migrations.
            resources: [.copy("Fixtures")]
        ),
        .target(
            name: "SyncRemoteData",
            dependencies: [
                "SyncRecordCoding",
                .product(name: "Domain", package: "Domain"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            exclude: ["Generated/openapi-generator-config.yaml"]
        ),
        .testTarget(
            name: "SyncRemoteDataTests",
            dependencies: [
                "SyncRemoteData",
                "SyncRecordCoding",
                .product(name: "Domain", package: "Domain"),
                .product(name: "DomainTestSupport", package: "Domain"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            // Sync records as other versions of Tokens wrote them.
            resources: [.copy("Fixtures")]
        ),
        .target(
            name: "SyncServerData",
            dependencies: [
                .product(name: "SyncServer", package: "Domain"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "_ConnectionPoolModule", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        .testTarget(
            name: "SyncServerDataTests",
            dependencies: [
                "SyncServerData",
                .product(name: "SyncServer", package: "Domain"),
                .product(name: "SyncServerTestSupport", package: "Domain"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "_ConnectionPoolModule", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
