import Foundation
import QuizCore
import QuizFormats
import Testing

/// A quiz written as a workbook and imported again gives the same questions.
@Suite struct SpreadsheetRoundTripTests {
    private let choices = [Choice(id: 1, text: "Helsinki", isCorrect: true), Choice(id: 2, text: "Tampere & <Turku>", isCorrect: false),
                           Choice(id: 3, text: "1969", isCorrect: false)]

    private func bank(_ questions: [Question]) -> Bank {
        Bank(subjects: [BankSubject(name: "Imported", topics: [
            BankTopic(name: "Imported", quizzes: [BankQuiz(title: "Imported questions", questions: questions)]),
        ])])
    }

    private func reread(_ data: Data) throws -> [Question] {
        let format = BankFormat.detect(fileName: "", data: data)
        #expect(format == .xlsx)
        return try format.read(data, defaults: ImportDefaults()).bank.subjects.flatMap(\.topics).flatMap(\.quizzes).flatMap(\.questions)
    }

    @Test func aQuizThroughKahootsTemplateComesBackTheSame() throws {
        let questions = [
            Question(text: "Capital of Finland?", body: .singleChoice(choices), timeLimitSeconds: 20),
            Question(text: "Which are prime?", body: .multipleChoice([Choice(id: 1, text: "2", isCorrect: true), Choice(id: 2, text: "4", isCorrect: false),
                                                                     Choice(id: 3, text: "3", isCorrect: true), Choice(id: 4, text: "9", isCorrect: false)])),
            Question(text: "Water is wet.", body: .trueFalse(true), timeLimitSeconds: 240),
            Question(text: "Fire is cold.", body: .trueFalse(false), timeLimitSeconds: 5),
        ]
        guard let (data, skipped) = BankFormat.kahoot.write(bank(questions)) else { Issue.record("kahoot is written"); return }
        #expect(skipped.isEmpty)
        // A question without a time of its own goes out with Kahoot's default, which comes back as its own.
        var expected = questions
        expected[1].timeLimitSeconds = 20
        #expect(try reread(data) == expected)
    }

    @Test func aTimeKahootDoesNotOfferBecomesTheNearestItDoes() throws {
        let questions = [45, 7, 200, 100].map { Question(text: "\($0) s?", body: .singleChoice(choices), timeLimitSeconds: $0) }
        guard let (data, _) = BankFormat.kahoot.write(bank(questions)) else { Issue.record("kahoot is written"); return }
        #expect(try reread(data).map(\.timeLimitSeconds) == [60, 5, 240, 90])
    }

    @Test func kindsKahootCannotHoldAreListedAsLeftOut() throws {
        let long = String(repeating: "x", count: 121)
        let questions = [
            Question(text: "Kept?", body: .singleChoice(choices)),
            Question(text: "Typed?", body: .typedAnswer(["yes"])),
            Question(text: long, body: .singleChoice(choices)),
            Question(text: "Five?", body: .singleChoice((1...5).map { Choice(id: $0, text: "c\($0)", isCorrect: $0 == 1) })),
        ]
        guard let (data, skipped) = BankFormat.kahoot.write(bank(questions)) else { Issue.record("kahoot is written"); return }
        #expect(skipped.map(\.message) == [
            "a typedAnswer question: Kahoot's template holds choice and true/false questions only",
            "the question is longer than Kahoot's 120 characters",
            "has 5 answers: Kahoot's template holds at most 4",
        ])
        #expect(try reread(data).map(\.text) == ["Kept?"])
    }

    @Test func quizboxSheetColumnsComeBackTheSame() throws {
        var question = Question(text: "Capital of Finland?", explanation: "Since 1812.", difficulty: .hard, body: .singleChoice(choices))
        question.points = 1
        let original = Bank(subjects: [BankSubject(name: "Geography", topics: [
            BankTopic(name: "Capitals", quizzes: [BankQuiz(title: "Imported questions", questions: [question])]),
        ])])
        guard let (data, skipped) = BankFormat.xlsx.write(original) else { Issue.record("xlsx is written"); return }
        #expect(skipped.isEmpty)
        let read = try BankFormat.xlsx.read(data, defaults: ImportDefaults())
        #expect(read.bank == original)
    }
}
