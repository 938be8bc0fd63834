// swift-tools-version: 6.2
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "quizbox",
    // iOS for QuizClient, the library an app links (Mutex needs iOS 18); the rest runs on servers.
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .executable(name: "quizbox", targets: ["quizbox"]),
        .library(name: "QuizClient", targets: ["QuizClient"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth.git", from: "2.5.0"),
        .package(url: "https://github.com/hummingbird-project/swift-openapi-hummingbird.git", from: "2.1.0"),
        .package(url: "https://github.com/apple/swift-openapi-runtime.git", from: "1.13.4"),
        .package(url: "https://github.com/apple/swift-configuration.git", from: "1.4.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-system.git", from: "1.8.1"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/vapor/sql-kit.git", from: "3.36.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache.git", from: "2.1.1"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        // Already there for async-http-client: named so a failed TLS handshake is told by its type.
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.0"),
        .package(url: "https://github.com/vapor/sqlite-kit.git", from: "4.5.2"),
        .package(url: "https://github.com/vapor/postgres-kit.git", from: "2.17.0"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket.git", from: "2.8.1"),
        // The HTTP transport of `quizbox play`; an iOS app gives QuizClient URLSession's instead.
        .package(url: "https://github.com/swift-server/swift-openapi-async-http-client.git", from: "1.5.0"),
        // GET /metrics: the swift-metrics API, exported in Prometheus text format.
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/adam-fowler/compress-nio.git", from: "1.5.0"),
        // Spreadsheets (.xlsx) are ZIP archives: read and written through it (QuizFormats).
        .package(url: "https://github.com/weichsel/ZIPFoundation.git", from: "0.9.20"),
    ],
    targets: [
        .target(name: "QuizCore", swiftSettings: swiftSettings),
        // The live games' WebSocket protocol (docs/live-protocol.md): every message both ways as a
        // Codable type, shared by the server, QuizClient and the live bench.
        .target(name: "QuizLiveProtocol", swiftSettings: swiftSettings),
        // English and Finnish: the gettext catalogs and what reads them, for the pages, the API and the CLI.
        .target(name: "QuizText", resources: [.copy("Resources/locales")], swiftSettings: swiftSettings),
        // A QR code encoder with no dependencies, for the join address on the host's screen.
        .target(name: "QRCode", swiftSettings: swiftSettings),
        // TeX in question texts as MathML (and as plain text for the terminal), with no dependencies.
        .target(name: "QuizMath", swiftSettings: swiftSettings),
        .target(
            name: "QuizFormats",
            dependencies: ["QuizCore", "QuizText", .product(name: "ZIPFoundation", package: "ZIPFoundation")],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "QuizStore",
            dependencies: [
                "QuizCore",
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "SQLiteKit", package: "sqlite-kit"),
                .product(name: "PostgresKit", package: "postgres-kit"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ],
            swiftSettings: swiftSettings
        ),
        // The flows of Quizbox (accounts, play, social, authoring…) as use cases: domain input in,
        // domain results or errors out. No HTTP, OpenAPI or Mustache here: the API, the pages and
        // the live games are adapters over these.
        .target(
            name: "QuizUseCases",
            dependencies: [
                "QuizCore", "QuizFormats", "QuizStore", "QuizText",
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "QuizAPI",
            dependencies: [
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
            ],
            // Generated/ is swift-openapi-generator's output, committed (scripts/generate-openapi):
            // building the generator and running its plugin cost every fresh build minutes.
            exclude: ["openapi-generator-config.yaml"],
            resources: [.copy("openapi.yaml")],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "QuizServer",
            dependencies: [
                "QuizCore", "QuizFormats", "QuizStore", "QuizUseCases", "QuizAPI", "QRCode", "QuizText", "QuizLiveProtocol", "QuizMath",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIHummingbird", package: "swift-openapi-hummingbird"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            resources: [
                .copy("Resources/starter-bank.json"),
                .copy("Resources/templates"),
                .copy("Resources/static"),
            ],
            swiftSettings: swiftSettings
        ),
        // What an app links: no server module. The live socket is HummingbirdWSClient (SwiftNIO, and
        // Network.framework on Apple platforms), which supports iOS as well as Linux.
        .target(
            name: "QuizClient",
            dependencies: [
                "QuizCore", "QuizAPI", "QuizLiveProtocol",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "quizbox",
            dependencies: [
                "QuizCore", "QuizFormats", "QuizStore", "QuizUseCases", "QuizServer", "QuizClient", "QuizText", "QuizLiveProtocol", "QuizMath",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "OpenAPIAsyncHTTPClient", package: "swift-openapi-async-http-client"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Configuration", package: "swift-configuration"),
            ],
            swiftSettings: swiftSettings
        ),
        // In-process timings for scripts/bench; not part of the product.
        .executableTarget(
            name: "QuizBench",
            dependencies: ["QuizCore", "QuizFormats", "QuizStore", "QuizUseCases", "QuizServer", "QuizText",
                           .product(name: "SQLKit", package: "sql-kit")],
            swiftSettings: swiftSettings
        ),
        // The live-game load generator of `scripts/bench live`: real sockets, as phones play; not part of the product.
        .executableTarget(
            name: "QuizLiveBench",
            dependencies: [
                "QuizCore", "QuizLiveProtocol",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        // A mutation fuzzer for the format readers, run by scripts/fuzz; not part of the product.
        .executableTarget(name: "QuizFuzz", dependencies: ["QuizCore", "QuizFormats", "QuizMath"], swiftSettings: swiftSettings),
        // Throwaway PostgreSQL databases for the test targets; not part of the product.
        .target(
            name: "QuizTestSupport",
            dependencies: ["QuizStore", .product(name: "SQLKit", package: "sql-kit"), .product(name: "Logging", package: "swift-log"),
                           .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                           .product(name: "NIOWebSocket", package: "swift-nio"),
                           .product(name: "HTTPTypes", package: "swift-http-types")],
            swiftSettings: swiftSettings
        ),
        .testTarget(name: "QuizCoreTests", dependencies: ["QuizCore", "QuizTestSupport"], swiftSettings: swiftSettings),
        .testTarget(
            name: "QuizFormatsTests",
            dependencies: ["QuizCore", "QuizFormats", "QuizMath", "QuizTestSupport", .product(name: "ZIPFoundation", package: "ZIPFoundation")],
            swiftSettings: swiftSettings
        ),
        .testTarget(name: "QRCodeTests", dependencies: ["QRCode", "QuizTestSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "QuizMathTests", dependencies: ["QuizMath"], swiftSettings: swiftSettings),
        .testTarget(name: "QuizLiveProtocolTests", dependencies: ["QuizLiveProtocol"], swiftSettings: swiftSettings),
        .testTarget(name: "QuizTextTests", dependencies: ["QuizText"], swiftSettings: swiftSettings),
        .testTarget(
            name: "QuizStoreTests",
            dependencies: ["QuizCore", "QuizStore", "QuizTestSupport", .product(name: "SQLKit", package: "sql-kit")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "QuizUseCasesTests",
            dependencies: [
                "QuizCore", "QuizFormats", "QuizStore", "QuizUseCases", "QuizTestSupport",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "QuizServerTests",
            dependencies: [
                "QuizCore", "QuizStore", "QuizUseCases", "QuizServer", "QuizClient", "QuizTestSupport", "QuizText", "QuizLiveProtocol",
                "QuizFormats",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "OpenAPIAsyncHTTPClient", package: "swift-openapi-async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "QuizboxTests",
            dependencies: ["quizbox", "QuizTestSupport", "QuizStore", .product(name: "SQLKit", package: "sql-kit"),
                           .product(name: "AsyncHTTPClient", package: "async-http-client")],
            swiftSettings: swiftSettings
        ),
    ]
)
