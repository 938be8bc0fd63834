import Foundation
import QuizCore
import QuizFormats
import Testing

@Suite struct AikenWriterTests {
    static func choices(_ texts: [String], correct: Int) -> QuestionBody {
        .singleChoice(texts.enumerated().map { Choice(id: $0.offset + 1, text: $0.element, isCorrect: $0.offset + 1 == correct) })
    }

    static func bank(_ questions: [Question], defaults: ImportDefaults = .init()) -> Bank {
        Bank(subjects: [BankSubject(name: defaults.subject, topics: [
            BankTopic(name: defaults.topic, quizzes: [BankQuiz(title: defaults.quizTitle, questions: questions)]),
        ])])
    }

    @Test func writesTextLetteredOptionsAndTheAnswerWithABlankLineBetweenQuestions() {
        let output = AikenWriter().write(Self.bank([
            Question(text: "Capital of France?", body: Self.choices(["Lyon", "Paris"], correct: 2)),
            Question(text: "Two lines:\nwhich?", body: Self.choices(["x", "y", "z"], correct: 1)),
        ]))
        #expect(output.text == "Capital of France?\nA. Lyon\nB. Paris\nANSWER: B\n\nTwo lines:\nwhich?\nA. x\nB. y\nC. z\nANSWER: A\n")
        #expect(output.skipped.isEmpty)
    }

    @Test func aBankWrittenAndReadBackIsTheSameBank() throws {
        let defaults = ImportDefaults(subject: "History", topic: "Rome", quizTitle: "Emperors")
        let bank = Self.bank([
            Question(text: "Who was the first emperor?", body: Self.choices(["Augustus", "Nero", "Caesar"], correct: 1)),
            Question(text: "Read this:\n\"Veni, vidi, vici\"\nWho said it?", body: Self.choices(["Caesar", "Cicero"], correct: 1)),
            Question(text: "Which is a Roman numeral?", body: Self.choices(["A. X", "B) Y", "ANSWER: Z", "IV"], correct: 4)),
            Question(text: "¿Cuántos años duró? 🏛", body: Self.choices(["≈ 500", "1 000", "2 000"], correct: 1)),
            Question(text: "Ten", body: Self.choices((1...10).map { "n\($0)" }, correct: 10)),
        ], defaults: defaults)
        let output = AikenWriter().write(bank)
        #expect(output.skipped.isEmpty)
        let read = try AikenReader(defaults: defaults).read(Data(output.text.utf8))
        #expect(read.bank == bank)
    }

    @Test func questionsFromEveryTopicAreWrittenInBankOrder() throws {
        let bank = Bank(subjects: [
            BankSubject(name: "S1", topics: [
                BankTopic(name: "T1", quizzes: [
                    BankQuiz(title: "Q1", questions: [Question(text: "one", body: Self.choices(["a", "b"], correct: 1))]),
                    BankQuiz(title: "Q2", questions: [Question(text: "two", body: Self.choices(["a", "b"], correct: 2))]),
                ], questions: [Question(text: "three", body: Self.choices(["a", "b"], correct: 1))]),
            ]),
            BankSubject(name: "S2", topics: [
                BankTopic(name: "T2", questions: [Question(text: "four", body: Self.choices(["a", "b"], correct: 2))]),
            ]),
        ])
        let read = try AikenReader().read(Data(AikenWriter().write(bank).text.utf8))
        let questions = read.bank.subjects.flatMap(\.topics).flatMap(\.quizzes).flatMap(\.questions)
        #expect(questions.map(\.text) == ["one", "two", "three", "four"])
    }

    @Test func questionsAikenCannotHoldAreSkippedWithTheirPathAndReason() {
        let bank = Bank(subjects: [BankSubject(name: "S", topics: [
            BankTopic(name: "T", quizzes: [BankQuiz(title: "Q", questions: [
                Question(text: "Kept?", body: Self.choices(["a", "b"], correct: 1)),
                Question(text: "Is water wet?", body: .trueFalse(true)),
                Question(text: "Which are prime?", body: .multipleChoice([
                    Choice(id: 1, text: "2", isCorrect: true), Choice(id: 2, text: "4", isCorrect: false),
                ])),
            ])], questions: [
                Question(text: "Intro\nA. Lincoln was president when?", body: Self.choices(["1861", "1901"], correct: 1)),
                Question(text: "Many?", body: Self.choices((1...27).map { "o\($0)" }, correct: 1)),
                Question(text: "None right?", body: Self.choices(["a", "b"], correct: 0)),
                Question(text: "Blank option?", body: Self.choices(["a", "  "], correct: 1)),
            ]),
        ])])
        let output = AikenWriter().write(bank)
        #expect(output.text == "Kept?\nA. a\nB. b\nANSWER: A\n")
        #expect(output.skipped.map(\.description) == [
            "subjects[0].topics[0].quizzes[0].questions[1]: a trueFalse question; Aiken holds single-choice questions only"
                + " (question \"Is water wet?\")",
            "subjects[0].topics[0].quizzes[0].questions[2]: a multipleChoice question; Aiken holds single-choice questions only"
                + " (question \"Which are prime?\")",
            "subjects[0].topics[0].questions[0]: a line of its text, \"A. Lincoln was president when?\", would be read as an option"
                + " (question \"Intro A. Lincoln was president when?\")",
            "subjects[0].topics[0].questions[1]: has 27 options; Aiken letters them A–Z, so at most 26 (question \"Many?\")",
            "subjects[0].topics[0].questions[2]: does not have exactly one correct option (question \"None right?\")",
            "subjects[0].topics[0].questions[3]: option B is empty (question \"Blank option?\")",
        ])
    }

    @Test func blankLinesInsideTextAndLineBreaksInsideOptionsAreFlattened() throws {
        let question = Question(text: "First paragraph.\n\n  Second paragraph?  ", body: Self.choices(["one\ntwo", "three"], correct: 2))
        let output = AikenWriter().write(Self.bank([question]))
        #expect(output.text == "First paragraph.\nSecond paragraph?\nA. one two\nB. three\nANSWER: B\n")
    }

    @Test func anEmptyBankIsAnEmptyFile() {
        let output = AikenWriter().write(Bank())
        #expect(output.text.isEmpty)
        #expect(output.skipped.isEmpty)
    }
}
