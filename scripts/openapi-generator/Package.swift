// swift-tools-version: 6.2
// Only for scripts/generate-openapi: the generator as a command, built on its own so Quizbox's
// build compiles the committed output and never the generator (OpenAPIKit, Yams, the plugin).
import PackageDescription

let package = Package(
    name: "openapi-generator",
    platforms: [.macOS(.v15)],
    dependencies: [
        // The version the committed sources were generated with; scripts/generate-openapi checks it.
        .package(url: "https://github.com/apple/swift-openapi-generator.git", exact: "1.14.3"),
    ],
    targets: []
)
