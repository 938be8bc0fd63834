// swift-tools-version: 6.2
// A bare Hummingbird server: the yardstick for Quizbox's build time (scripts/build-times) and
// for its /health throughput (scripts/bench). Kept minimal on purpose; not part of Quizbox.
import PackageDescription

let package = Package(
    name: "hello-world",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
    ],
    targets: [
        .executableTarget(name: "HelloWorld", dependencies: [.product(name: "Hummingbird", package: "hummingbird")]),
    ]
)
