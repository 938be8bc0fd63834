import Foundation
import QuizCore
import QuizFormats
import Testing

/// Helpers for the GIFT tests, in a namespace so they cannot clash with other formats' helpers.
enum GIFTSupport {
    static func read(_ text: String, defaults: ImportDefaults = .init()) throws -> ReadResult {
        try GIFTReader(defaults: defaults).read(Array(text.utf8))
    }

    /// Every question the text holds, in order; fails the test if the reader rejects it.
    static func questions(_ text: String) throws -> [Question] {
        questions(in: try read(text).bank)
    }

    /// The one question the text holds.
    static func question(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Question {
        let all = try questions(text)
        try #require(all.count == 1, "expected one question, got \(all.count)", sourceLocation: sourceLocation)
        return all[0]
    }

    static func questions(in bank: Bank) -> [Question] {
        bank.subjects.flatMap(\.topics).flatMap { $0.quizzes.flatMap(\.questions) + $0.questions }
    }

    /// The problems for input the reader must reject; records an issue if it accepts it.
    static func problems(_ bytes: [UInt8], defaults: ImportDefaults = .init(), sourceLocation: SourceLocation = #_sourceLocation) -> [FormatProblem] {
        do {
            let result = try GIFTReader(defaults: defaults).read(bytes)
            Issue.record("expected the GIFT to be rejected, but it read \(result.bank.questionCount) questions", sourceLocation: sourceLocation)
            return []
        } catch {
            return error.problems
        }
    }

    static func problems(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> [FormatProblem] {
        problems(Array(text.utf8), sourceLocation: sourceLocation)
    }

    /// "line:column message" for each problem: short enough to compare whole.
    static func located(_ problems: [FormatProblem]) -> [String] {
        problems.map { "\($0.line.map(String.init) ?? "-"):\($0.column.map(String.init) ?? "-") \($0.message)" }
    }

    static func choices(_ texts: [String], correct: Set<Int>) -> [Choice] {
        texts.enumerated().map { Choice(id: $0.offset + 1, text: $0.element, isCorrect: correct.contains($0.offset + 1)) }
    }

    /// /work/shared/testdata/formats/gift/`name`, found from this source file, never copied.
    static func realFile(_ name: String) throws -> Data {
        let url = SharedTestData.url("gift/\(name)")
        return try Data(contentsOf: url)
    }

    static let realFiles = [
        "peg-TFTwoFeedback.gift", "peg-escapeAll.gift", "peg-mcHTMLComment.gift", "peg-multiLineFeedback1.gift",
        "peg-numerical1.gift", "peg-shortAnswerNotMatching.gift", "qas-all.gift", "rgiftparser-french-exam.gift",
    ]
}
