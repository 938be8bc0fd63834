import QuizCore
import QuizUseCases
import Testing

@Suite struct AnswerInputTests {
    @Test func exactlyOneFieldMakesAnAnswer() throws {
        #expect(try AnswerInput.choice(7).answer() == .choice(7))
        #expect(try AnswerInput.choices([3, 3, 5]).answer() == .choices([3, 5]))
        #expect(try AnswerInput.bool(false).answer() == .bool(false))
        #expect(try AnswerInput.text("Paris").answer() == .text("Paris"))
        #expect(try AnswerInput.number(1.5).answer() == .number(1.5))
        // Typed digits stay text: the question reads them with its unit.
        #expect(try AnswerInput(number: .typed("1,5 km")).answer() == .text("1,5 km"))
    }

    @Test func noFieldOrSeveralIsNoAnswer() {
        #expect(throws: AnswerProblem.notOneField) { try AnswerInput().answer() }
        #expect(throws: AnswerProblem.notOneField) { try AnswerInput(choice: 2, text: "x").answer() }
        #expect(throws: AnswerProblem.notOneField) { try AnswerInput(number: .value(.infinity)).answer() }
    }

    @Test func everyLimitIsHeldHere() throws {
        #expect(throws: AnswerProblem.empty) { try AnswerInput.choices([]).answer() }
        #expect(throws: AnswerProblem.empty) { try AnswerInput.text("").answer() }
        #expect(throws: AnswerProblem.empty) { try AnswerInput(number: .typed("")).answer() }
        // Counted as sent, repeats too.
        #expect(throws: AnswerProblem.tooManyChoices) { try AnswerInput.choices(Array(repeating: 1, count: 11)).answer() }
        #expect(throws: AnswerProblem.tooLong) { try AnswerInput.text(String(repeating: "é", count: 501)).answer() }
        #expect(try AnswerInput.text(String(repeating: "é", count: 500)).answer() == .text(String(repeating: "é", count: 500)))
        #expect(throws: AnswerProblem.tooLong) { try AnswerInput(number: .typed(String(repeating: "9", count: 41))).answer() }
    }
}
