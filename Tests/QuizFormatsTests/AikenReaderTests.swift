import Foundation
import QuizCore
import QuizFormats
import Testing

@Suite struct AikenReaderTests {
    static func read(_ text: String, defaults: ImportDefaults = .init()) throws -> ReadResult {
        try AikenReader(defaults: defaults).read(Data(text.utf8))
    }

    static func questions(_ text: String) throws -> [Question] {
        try read(text).bank.subjects.flatMap(\.topics).flatMap(\.quizzes).flatMap(\.questions)
    }

    static func choices(_ texts: [String], correct: Int) -> QuestionBody {
        .singleChoice(texts.enumerated().map { Choice(id: $0.offset + 1, text: $0.element, isCorrect: $0.offset + 1 == correct) })
    }

    @Test func readsOptionsWrittenWithADotOrAParenthesis() throws {
        let questions = try Self.questions("What is the capital of France?\nA. Lyon\nB) Paris\nC. Nice\nANSWER: B\n")
        #expect(questions == [Question(text: "What is the capital of France?", body: Self.choices(["Lyon", "Paris", "Nice"], correct: 2))])
    }

    @Test func questionsGoIntoTheDefaultSubjectTopicAndQuizAtMediumDifficulty() throws {
        let defaults = ImportDefaults(subject: "Geography", topic: "Capitals", quizTitle: "Europe")
        let result = try Self.read("Capital of Spain?\nA. Madrid\nB. Bilbao\nANSWER: A\n\nCapital of Italy?\nA. Milan\nB. Rome\nANSWER: B\n", defaults: defaults)
        #expect(result.warnings.isEmpty)
        #expect(result.bank == Bank(subjects: [BankSubject(name: "Geography", topics: [BankTopic(name: "Capitals", quizzes: [
            BankQuiz(title: "Europe", questions: [
                Question(text: "Capital of Spain?", difficulty: .medium, body: Self.choices(["Madrid", "Bilbao"], correct: 1)),
                Question(text: "Capital of Italy?", difficulty: .medium, body: Self.choices(["Milan", "Rome"], correct: 2)),
            ]),
        ])])]))
    }

    @Test func questionTextMayRunOverSeveralLinesUntilTheFirstOption() throws {
        let questions = try Self.questions("Look at this code:\n  let x = 1 + 1\nWhat is x?\nA. 1\nB. 2\nANSWER: B")
        #expect(questions.map(\.text) == ["Look at this code:\nlet x = 1 + 1\nWhat is x?"])
    }

    @Test func blankLinesAfterAnAnswerAreOptionalAndMayBeMany() throws {
        let questions = try Self.questions("\n\nQ1?\nA. a\nB. b\nANSWER: A\nQ2?\nA. c\nB. d\nANSWER: B\n\n\n\nQ3?\nA. e\nB. f\nANSWER: A\n\n")
        #expect(questions.map(\.text) == ["Q1?", "Q2?", "Q3?"])
        #expect(questions.map { $0.body.choices.first(where: \.isCorrect)?.text } == ["a", "d", "e"])
    }

    @Test func byteOrderMarkCRLFAndLoneCRAreAccepted() throws {
        let crlf = try AikenReader().read(Data([0xEF, 0xBB, 0xBF] + Array("Q?\r\nA. yes\r\nB. no\r\nANSWER: A\r\n".utf8)))
        let cr = try Self.read("Q?\rA. yes\rB. no\rANSWER: A\r")
        let expected = [Question(text: "Q?", body: Self.choices(["yes", "no"], correct: 1))]
        #expect(crlf.bank.subjects.first?.topics.first?.quizzes.first?.questions == expected)
        #expect(cr.bank.subjects.first?.topics.first?.quizzes.first?.questions == expected)
    }

    @Test func spacesAroundLinesAndABlankLineBeforeTheOptionsAreIgnored() throws {
        let questions = try Self.questions("  Q?  \n\n   A)   one \n\tB.\ttwo\n\n  answer:  b  \n")
        #expect(questions == [Question(text: "Q?", body: Self.choices(["one", "two"], correct: 2))])
    }

    @Test func aLineThatOnlyLooksLikeAnOptionIsQuestionText() throws {
        let questions = try Self.questions("B.C. or A.D.?\nA. B.C.\nB. A.D.\nANSWER: A")
        #expect(questions.first?.text == "B.C. or A.D.?")
        #expect(questions.first?.body.choices.map(\.text) == ["B.C.", "A.D."])
    }

    @Test func optionsMayGoUpToTenAndKeepTheirOrder() throws {
        let letters = "ABCDEFGHIJ".map(String.init)
        let text = "Pick J\n" + letters.map { "\($0). option \($0)\n" }.joined() + "ANSWER: J\n"
        let question = try #require(try Self.questions(text).first)
        #expect(question.body.choices.map(\.id) == Array(1...10))
        #expect(question.body.choices.last == Choice(id: 10, text: "option J", isCorrect: true))
    }

    @Test func unicodeTextIsKeptAsWritten() throws {
        let questions = try Self.questions("¿Dónde está Saint-Étienne? 🇫🇷\nA. Francia\nB. España\nANSWER: A\n")
        #expect(questions.first?.text == "¿Dónde está Saint-Étienne? 🇫🇷")
    }
}
