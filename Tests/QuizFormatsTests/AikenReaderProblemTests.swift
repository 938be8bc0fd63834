import Foundation
import QuizCore
import QuizFormats
import Testing

@Suite(.timeLimit(.minutes(1))) struct AikenReaderProblemTests {
    static func error(_ bytes: [UInt8], defaults: ImportDefaults = .init(), sourceLocation: SourceLocation = #_sourceLocation) -> ImportError {
        do {
            let result = try AikenReader(defaults: defaults).read(Data(bytes))
            Issue.record("expected the file to be rejected, but it read \(result.bank.questionCount) questions", sourceLocation: sourceLocation)
            return ImportError(problems: [])
        } catch {
            return error
        }
    }

    /// Each problem as "line:column message".
    static func problems(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> [String] {
        error(Array(text.utf8), sourceLocation: sourceLocation).problems.map {
            "\($0.line.map(String.init) ?? "-"):\($0.column.map(String.init) ?? "-") \($0.message)"
        }
    }

    @Test func answerLetterThatIsNotAnOptionIsReportedAtTheLetter() {
        let error = Self.error(Array("Q?\nA. a\nB. b\nANSWER: E\n".utf8))
        #expect(error.problems == [FormatProblem(line: 4, column: 9, question: "Q?", message: "answer E is not one of the options (A–B)")])
        #expect(error.description == "line 4, column 9: answer E is not one of the options (A–B) (question \"Q?\")")
    }

    @Test func optionsOutOfOrderAreReportedAtTheirLetter() {
        #expect(Self.problems("Q?\nA. a\n  C. c\nANSWER: A\n") == ["3:3 option C is out of order: expected B"])
    }

    @Test func aRepeatedOptionLetterNamesTheLineOfTheFirst() {
        #expect(Self.problems("Q?\nA. a\nB. b\nA) c\nANSWER: A\n") == ["4:1 option A repeats the option A on line 2"])
    }

    @Test func missingAnswerLineIsReportedWhereItBelongedAndTheNextQuestionStillReads() {
        #expect(Self.problems("Q1?\nA. a\nB. b\n\nQ2?\nA. c\nB. c2\nANSWER: Z\n") == [
            "4:1 expected \"ANSWER: X\" after the options of the question above",
            "8:9 answer Z is not one of the options (A–B)",
        ])
        // Without a blank line, the next question's text is where the answer was expected.
        #expect(Self.problems("Q1?\nA. a\nB. b\nQ2?\nA. c\nB. d\nANSWER: A\n") == [
            "4:1 expected \"ANSWER: X\" after the options of the question above",
        ])
    }

    @Test func missingAnswerLineAtTheEndOfTheFilePointsPastTheLastOption() {
        #expect(Self.problems("Q?\nA. a\nB. bb\n") == ["3:6 the file ends before the question's \"ANSWER: X\" line"])
    }

    @Test func aQuestionNeedsAtLeastTwoOptions() {
        #expect(Self.problems("Q?\nA. only\nANSWER: A\n") == ["1:1 question has only 1 option; it needs at least 2"])
        #expect(Self.problems("  Q?\nANSWER: A\n") == [
            "1:3 question has no options: write them on the lines after it, as \"A. …\" or \"A) …\"",
        ])
    }

    @Test func questionTextFollowedByABlankLineAndMoreTextHasNoOptions() {
        #expect(Self.problems("Lost question\n\nQ2?\nA. a\nB. b\nANSWER: A\n") == [
            "1:1 question has no options: write them on the lines after it, as \"A. …\" or \"A) …\"",
        ])
    }

    @Test func anOptionBeforeAnyQuestionTextIsReported() {
        #expect(Self.problems("  A. a\nB. b\nANSWER: A\n") == ["1:3 option A comes before any question text"])
    }

    @Test func answerLinesWithoutAQuestionOrALetterAreReported() {
        #expect(Self.problems("ANSWER: A\nQ?\nA. a\nB. b\nANSWER:\nQ2?\nA. a\nB. b\nANSWER: A B\n") == [
            "1:1 \"ANSWER:\" line without a question before it",
            "5:8 \"ANSWER:\" needs the letter of the correct option, as in \"ANSWER: B\"",
            "9:9 expected one letter A–Z after \"ANSWER:\", found \"A B\"",
        ])
    }

    @Test func brokenQuestionRulesAreReportedInAikenTerms() {
        #expect(Self.problems("Capital?\nA. Paris\nB)  paris \nANSWER: A\n") == ["3:5 option B repeats option A (\"Paris\")"])
        let eleven = "Q?\n" + "ABCDEFGHIJK".map { "\($0). \($0)\n" }.joined() + "ANSWER: A\n"
        #expect(Self.problems(eleven) == ["1:1 question needs 2 to 10 options, has 11"])
        let long = String(repeating: "x", count: 501)
        #expect(Self.problems("Q?\nA. \(long)\nB. b\nANSWER: B\n") == ["2:4 option A is longer than 500 characters"])
        #expect(Self.problems("\(long)\(long)\(long)\(long)\nA. a\nB. b\nANSWER: B\n") == [
            "1:1 question text is longer than 2000 characters",
        ])
    }

    @Test func emptyOptionTextIsReported() {
        #expect(Self.problems("Q?\nA.\nB. b\nANSWER: B\n") == ["2:3 option A is empty"])
    }

    @Test func everyProblemIsReportedInOnePassWithItsQuestion() {
        let error = Self.error(Array("Q1?\nA. a\nB. b\nANSWER: C\n\nQ2?\nA. a\nANSWER: A\n\nQ3?\nA. x\nB. y\nANSWER: B\n\nQ4?\nB. b\n".utf8))
        #expect(error.problems.map(\.line) == [4, 6, 16, 16])
        #expect(error.problems.map(\.question) == ["Q1?", "Q2?", "Q4?", "Q4?"])
    }

    @Test func problemsBeyondTheLimitAreCounted() {
        let text = String(repeating: "Q?\nA. a\nB. b\nANSWER: C\n\n", count: 150)
        let error = Self.error(Array(text.utf8))
        #expect(error.problems.count == ImportError.maxProblems)
        #expect(error.omittedCount == 50)
    }

    @Test func aHostileFileOfRepeatedOptionsIsRejectedQuickly() {
        let error = Self.error(Array(("Q?\n" + String(repeating: "A. x\n", count: 200_000) + "ANSWER: A\n").utf8))
        #expect(error.problems.count + error.omittedCount == 199_999)
        #expect(error.problems.first?.description == "line 3, column 1: option A repeats the option A on line 2 (question \"Q?\")")
        let longText = Self.error(Array((String(repeating: "more text\n", count: 200_000) + "A. a\nB. b\nANSWER: A\n").utf8))
        #expect(longText.problems.map(\.message) == ["question text is longer than 2000 characters"])
    }

    @Test func textThatIsNotUTF8IsRejectedAtTheFirstBadByte() {
        let error = Self.error(Array("Q?\nA. caf".utf8) + [0xE9] + Array("\nB. b\nANSWER: A\n".utf8))
        #expect(error.problems == [FormatProblem(line: 2, column: 7, message: "the file is not valid UTF-8 (save it as UTF-8)")])
        let utf16 = Self.error([0xFF, 0xFE] + Array("Q\0?\0".utf8))
        #expect(utf16.problems == [FormatProblem(line: 1, column: 1, message: "the file is UTF-16; save it as UTF-8")])
    }

    @Test func aFileOverTheSizeLimitIsRejectedBeforeReading() {
        let error = Self.error(Array("Q?\nA. a\nB. b\nANSWER: A\n".utf8), defaults: ImportDefaults(maxBytes: 10))
        #expect(error.problems.map(\.message) == ["the file is 23 bytes, over the import limit of 10 bytes"])
    }

    @Test func aFileWithNoQuestionsIsRejected() {
        #expect(Self.problems("") == ["-:- the file holds no questions"])
        #expect(Self.problems("\n  \r\n\t\n") == ["-:- the file holds no questions"])
    }
}
