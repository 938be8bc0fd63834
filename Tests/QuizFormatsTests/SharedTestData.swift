import Foundation
import QuizCore
import Testing

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

    static var isPresent: Bool { FileManager.default.fileExists(atPath: formats.path) }

    /// For tests that read these files: skipped, with the reason, in a clone on its own (as
    /// anyone outside the team has it); run, and failing if the folder is missing, under CI=true.
    static var required: ConditionTrait {
        .enabled(if: isPresent || ProcessInfo.processInfo.environment["CI"] == "true",
                 "needs shared/testdata/formats beside the checkout (third-party files, not in the repository)")
    }
}

/// SplitMix64 for the fuzz tests: the same seed gives the same inputs on every machine, so a
/// failure replays exactly.
typealias SeededGenerator = SplitMix64
