import Foundation
import QuizCore
import QuizFormats
import Testing

/// /work/shared/testdata/formats/aiken/qas-aiken_1.txt, a Moodle sample: five questions, one with
/// five options and one option starting with "-", long texts with "[image]" placeholders, and a
/// last question whose four options are all just "." (written `A)  .`).
@Suite(.timeLimit(.minutes(1)), SharedTestData.required) struct AikenFileTests {
    static let file = SharedTestData.url("aiken/qas-aiken_1.txt")

    @Test func theSampleIsRejectedBecauseItsLastQuestionRepeatsTheOptionDot() throws {
        let data = try Data(contentsOf: Self.file)
        do {
            let result = try AikenReader().read(data)
            Issue.record("expected the repeated \".\" options to be rejected, got \(result.bank.questionCount) questions")
        } catch {
            // A player could not tell four "." options apart; each repeat is reported where it is.
            #expect(error.problems.map { "\($0.line ?? 0):\($0.column ?? 0) \($0.message)" } == [
                "29:5 option B repeats option A (\".\")",
                "30:5 option C repeats option A (\".\")",
                "31:5 option D repeats option A (\".\")",
            ])
            #expect(error.problems.allSatisfy { $0.question?.hasPrefix("You may include a variety of media") == true })
        }
    }

    @Test func theSamplesOtherQuestionsReadWithTheirOptionsAndAnswers() throws {
        let text = try String(contentsOf: Self.file, encoding: .utf8)
        let firstFour = text.components(separatedBy: "\n").prefix(25).joined(separator: "\n")
        let result = try AikenReader().read(Data(firstFour.utf8))
        let questions = result.bank.subjects.flatMap(\.topics).flatMap(\.quizzes).flatMap(\.questions)
        #expect(questions.count == 4)
        #expect(questions.map { $0.body.choices.count } == [5, 3, 3, 3])
        #expect(questions.map { $0.body.choices.first(where: \.isCorrect)?.text } == [
            "2.5", "Teaching with Moodle", "The workshop module", "November 2015",
        ])
        #expect(questions.first?.text == "Which version of Moodle does this image represent?")
        #expect(questions.first?.body.choices.map(\.text) == ["2.6", "-2.0", "2.0", "2.1", "2.5"])
        #expect(questions[2].text.hasSuffix("Which was the first ever contributed module or \"add-on\"?"))
        #expect(questions.allSatisfy { $0.kind == .singleChoice && $0.validationErrors().isEmpty })
    }

    @Test func mutationsOfTheSampleAndRandomBytesAreReadOrRejectedNeverCrash() throws {
        let sample = try [UInt8](Data(contentsOf: Self.file))
        // The sample is rejected as a whole; its first four questions are not, so mutations of
        // them exercise the accepting path too.
        let firstFour = Array(try String(contentsOf: Self.file, encoding: .utf8)
            .components(separatedBy: "\n").prefix(25).joined(separator: "\n").utf8)
        let written = Array(AikenWriter().write(Bank(subjects: [BankSubject(name: "S", topics: [BankTopic(name: "T", quizzes: [
            BankQuiz(title: "Q", questions: [
                Question(text: "Q1?", body: .singleChoice([Choice(id: 1, text: "a", isCorrect: false), Choice(id: 2, text: "b", isCorrect: true)])),
            ]),
        ])])])).text.utf8)
        let tokens = ["\n", "\r\n", "\r", "A. ", "B) ", "Z. ", "ANSWER: ", "ANSWER: A", "answer:", "\u{FEFF}", " ", ".", ")", "é"]
            .map { Array($0.utf8) } + [[0xFF], [0xC3], [0xEF, 0xBB, 0xBF], [0]]
        var fuzzer = SeededMutator(seed: 0xA1CE)
        var accepted = 0
        for round in 0..<3_000 {
            let input: [UInt8]
            switch round % 6 {
            case 0: input = fuzzer.randomBytes(maxCount: 200)
            case 1: input = fuzzer.randomTokens(tokens + [Array("Q?".utf8), Array("x".utf8)], maxCount: 40)
            case 2: input = fuzzer.mutate(written, tokens: tokens)
            case 3: input = fuzzer.mutate(sample, tokens: tokens)
            default: input = fuzzer.mutate(firstFour, tokens: tokens)
            }
            do {
                let result = try AikenReader().read(Data(input))
                accepted += 1
                let questions = result.bank.subjects.flatMap(\.topics).flatMap(\.quizzes).flatMap(\.questions)
                #expect(!questions.isEmpty && questions.allSatisfy { $0.validationErrors().isEmpty })
            } catch {
                #expect(!error.problems.isEmpty && error.problems.count <= ImportError.maxProblems)
                #expect(error.problems.allSatisfy { $0.line != nil || $0.path != nil || $0.message.hasPrefix("the file") })
            }
        }
        #expect(accepted > 0)  // the mutations are not all fatal, so the accepting path is exercised too
    }
}

/// Random inputs for the fuzz tests of the Aiken, Open Trivia DB and remote-question readers.
/// Seeded (SplitMix64), so a failure replays exactly.
struct SeededMutator {
    private var generator: SeededGenerator

    init(seed: UInt64) {
        generator = SeededGenerator(state: seed)
    }

    mutating func next() -> UInt64 { generator.next() }

    mutating func below(_ bound: Int) -> Int { bound <= 0 ? 0 : Int(next() % UInt64(bound)) }

    mutating func randomBytes(maxCount: Int) -> [UInt8] {
        (0..<below(maxCount + 1)).map { _ in UInt8(truncatingIfNeeded: next()) }
    }

    mutating func randomTokens(_ tokens: [[UInt8]], maxCount: Int) -> [UInt8] {
        (0..<below(maxCount + 1)).flatMap { _ in tokens[below(tokens.count)] }
    }

    /// One to four edits: a byte changed, a token inserted, a range deleted or doubled, a cut.
    mutating func mutate(_ input: [UInt8], tokens: [[UInt8]]) -> [UInt8] {
        var bytes = input
        for _ in 0..<(1 + below(4)) {
            let at = below(bytes.count + 1)
            switch below(5) {
            case 0 where !bytes.isEmpty: bytes[min(at, bytes.count - 1)] = UInt8(truncatingIfNeeded: next())
            case 1: bytes.insert(contentsOf: tokens[below(tokens.count)], at: at)
            case 2: bytes.removeSubrange(at..<min(bytes.count, at + 1 + below(40)))
            case 3: bytes.insert(contentsOf: bytes[at..<min(bytes.count, at + below(80))], at: at)
            default: bytes.removeSubrange(at...)
            }
        }
        return bytes
    }
}
