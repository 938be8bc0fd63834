import Foundation

/// The third-party bank files in shared/testdata/formats, read where they are (beside the
/// checkout, never copied into it: several are GPL-3.0 or CC BY-SA).
enum SharedTestData {
    static let formats = URL(fileURLWithPath: #filePath)
        .resolvingSymlinksInPath()  // the source may be reached through a symlinked checkout
        .deletingLastPathComponent()  // QuizFormatsTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // the checkout
        .deletingLastPathComponent()  // the folder holding the checkout and shared
        .appendingPathComponent("shared/testdata/formats")

    static func url(_ path: String) -> URL { formats.appendingPathComponent(path) }
}

/// SplitMix64 for the fuzz tests: the same seed gives the same inputs on every machine, so a
/// failure replays exactly.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
