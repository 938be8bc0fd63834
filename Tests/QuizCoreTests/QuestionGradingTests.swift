@testable import QuizCore
import Testing

@Suite struct QuestionGradingTests {
    private let capital = Question(text: "Capital of France?", body: .singleChoice([
        Choice(id: 1, text: "Lyon", isCorrect: false), Choice(id: 2, text: "Paris", isCorrect: true),
        Choice(id: 3, text: "Nice", isCorrect: false),
    ]))
    private let primes = Question(text: "Which are prime?", body: .multipleChoice([
        Choice(id: 1, text: "2", isCorrect: true), Choice(id: 2, text: "3", isCorrect: true),
        Choice(id: 3, text: "4", isCorrect: false),
    ]))
    private let hague = Question(text: "Seat of the Dutch government?", body: .typedAnswer(["The Hague", "Den Haag"]))
    private func numeric(_ value: Double, tolerance: Double = 0, unit: String? = nil) -> Question {
        Question(text: "How much?", body: .numeric(value: value, tolerance: tolerance, unit: unit))
    }

    @Test func singleChoiceIsCorrectOnlyForTheCorrectId() throws {
        #expect(try capital.isCorrect(.choice(2)))
        #expect(try !capital.isCorrect(.choice(1)))
        #expect(try capital.isCorrect(.choices([2])))
    }

    @Test func singleChoiceRejectsUnknownIdsAndSeveralIds() {
        #expect(throws: GradingError.unknownChoice(7)) { try capital.isCorrect(.choice(7)) }
        #expect(throws: GradingError.answerDoesNotFitKind(expected: .singleChoice)) { try capital.isCorrect(.choices([1, 2])) }
        #expect(throws: GradingError.answerDoesNotFitKind(expected: .singleChoice)) { try capital.isCorrect(.text("Paris")) }
    }

    @Test func multipleChoiceIsAllOrNothing() throws {
        #expect(try primes.isCorrect(.choices([1, 2])))
        #expect(try !primes.isCorrect(.choices([1])))
        #expect(try !primes.isCorrect(.choices([1, 2, 3])))
        #expect(try !primes.isCorrect(.choices([])))
        #expect(try !primes.isCorrect(.choice(1)))
    }

    @Test func multipleChoiceAcceptsASingleIdAsAOneElementSet() throws {
        let one = Question(text: "Even prime?", body: .multipleChoice([
            Choice(id: 1, text: "2", isCorrect: true), Choice(id: 2, text: "3", isCorrect: false),
        ]))
        #expect(try one.isCorrect(.choice(1)))
    }

    @Test func multipleChoiceReportsTheSmallestUnknownId() {
        #expect(throws: GradingError.unknownChoice(4)) { try primes.isCorrect(.choices([1, 9, 4])) }
        #expect(throws: GradingError.answerDoesNotFitKind(expected: .multipleChoice)) { try primes.isCorrect(.bool(true)) }
    }

    @Test func trueFalseComparesTheBool() throws {
        let question = Question(text: "Water boils at 100 °C at sea level.", body: .trueFalse(true))
        #expect(try question.isCorrect(.bool(true)))
        #expect(try !question.isCorrect(.bool(false)))
        #expect(throws: GradingError.answerDoesNotFitKind(expected: .trueFalse)) { try question.isCorrect(.text("true")) }
    }

    @Test func typedAnswerMatchesAnyAcceptedAnswerAfterNormalisation() throws {
        #expect(try hague.isCorrect(.text("hague")))
        #expect(try hague.isCorrect(.text("  THE HAGUE! ")))
        #expect(try hague.isCorrect(.text("den-haag")))
        #expect(try !hague.isCorrect(.text("Amsterdam")))
        #expect(try !hague.isCorrect(.text("?!")))
        #expect(throws: GradingError.answerDoesNotFitKind(expected: .typedAnswer)) { try hague.isCorrect(.choice(1)) }
    }

    @Test func numericIsCorrectWithinTheTolerance() throws {
        let question = numeric(100, tolerance: 5)
        #expect(try question.isCorrect(.number(95)))
        #expect(try question.isCorrect(.number(105)))
        #expect(try !question.isCorrect(.number(105.01)))
        #expect(try !question.isCorrect(.number(.nan)))
        #expect(try !question.isCorrect(.number(.infinity)))
    }

    @Test func numericForgivesFloatingPointNoise() throws {
        #expect(try numeric(0.3).isCorrect(.number(0.1 + 0.2)))
        #expect(try !numeric(0.3).isCorrect(.number(0.3001)))
    }

    @Test func numericAcceptsTextWithDotOrCommaAndTheUnit() throws {
        let question = numeric(1.5, unit: "km")
        #expect(try question.isCorrect(.text("1.5")))
        #expect(try question.isCorrect(.text(" 1,5 ")))
        #expect(try question.isCorrect(.text("1.5 km")))
        #expect(try question.isCorrect(.text("1,50KM")))
        #expect(try !question.isCorrect(.text("2")))
        #expect(try numeric(-3).isCorrect(.text("−3")))
    }

    @Test func numericRejectsTextThatIsNotANumber() {
        let question = numeric(1.5)
        for text in ["", "one", "1.2.3", "1,2.3", "1e3", "inf", "--1", "1-", "0x10", "12 apples"] {
            #expect(throws: GradingError.answerDoesNotFitKind(expected: .numeric), "\(text)") { try question.isCorrect(.text(text)) }
        }
        #expect(throws: GradingError.answerDoesNotFitKind(expected: .numeric)) { try question.isCorrect(.bool(true)) }
    }

    @Test func parsesLooseDecimalForms() {
        #expect(Question.parseNumber(".5", unit: nil) == 0.5)
        #expect(Question.parseNumber("5.", unit: nil) == 5)
        #expect(Question.parseNumber("+7", unit: nil) == 7)
        #expect(Question.parseNumber(",", unit: nil) == nil)
    }

    @Test func nameAllCannotBeGradedAsOneAnswer() {
        let question = Question(text: "Name them", body: .nameAll(
            items: [NameAllItem(answer: "x")], timeLimitSeconds: 60, typoTolerance: false))
        #expect(throws: GradingError.answerDoesNotFitKind(expected: .nameAll)) { try question.isCorrect(.text("x")) }
    }

    @Test func correctAnswerShowsWhatAPlayerShouldHaveAnswered() {
        #expect(capital.correctAnswer == .choices([Choice(id: 2, text: "Paris", isCorrect: true)]))
        #expect(primes.correctAnswer == .choices(Array(primes.body.choices.prefix(2))))
        #expect(Question(text: "T", body: .trueFalse(false)).correctAnswer == .bool(false))
        #expect(hague.correctAnswer == .text("The Hague"))
        #expect(numeric(42, tolerance: 1, unit: "kg").correctAnswer == .number(42, tolerance: 1, unit: "kg"))
        let beatles = Question(text: "Beatles", body: .nameAll(
            items: [NameAllItem(answer: "John", alternates: ["Lennon"]), NameAllItem(answer: "Paul")],
            timeLimitSeconds: 60, typoTolerance: false))
        #expect(beatles.correctAnswer == .items(["John", "Paul"]))
    }
}
