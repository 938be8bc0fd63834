import Foundation
import QuizCore
import Testing

/// Typed answers worth part of the points, and numbers given in any of a question's units.
@Suite struct TypedCreditAndUnitsTests {
    let capital = Question(text: "Capital of France?", points: 4, body: .typedAnswer(
        ["Paris"], partial: [Alternative("Lutetia", fraction: Fraction(0.5)!), Alternative("Île-de-France", fraction: Fraction(0.25)!)]))

    @Test func aPartialTypedAnswerEarnsItsShareAndAFullOneAll() throws {
        #expect(try capital.verdict(for: .text(" paris ")).verdict == .correct)
        let lutetia = try capital.verdict(for: .text("LUTETIA"))
        #expect(lutetia.verdict == .partlyCorrect)
        #expect(lutetia.credit.points(of: capital.points) == 2)
        #expect(try capital.credit(for: .text("ile de france")).percent == 25)
        #expect(try capital.verdict(for: .text("Lyon")).verdict == .wrong)
        #expect(try capital.isCorrect(.text("Lutetia")) == false)
        #expect(capital.correctAnswer == .text("Paris"))
    }

    @Test func partialAnswersMustBeWorthSomethingLessThanAllAndNotRepeatAnAcceptedOne() {
        let broken = Question(text: "Capital?", body: .typedAnswer(["Paris"], partial: [
            Alternative("paris!", fraction: Fraction(0.5)!), Alternative("Lutetia", fraction: .full), Alternative("Lyon", fraction: .zero),
            Alternative("  ", fraction: Fraction(0.5)!),
        ]))
        #expect(broken.validationErrors().map(\.field) == [
            "partial[0].text", "partial[1].fraction", "partial[2].fraction", "partial[3].text",
        ])
        let tooMany = Question(text: "Capital?", body: .typedAnswer(["Paris"], partial: (1...21).map { Alternative("p\($0)", fraction: Fraction(0.5)!) }))
        #expect(tooMany.validationErrors().map(\.field) == ["partial"])
    }

    let yield = Question(text: "Wheat yield?", body: .numeric(value: 2.5, tolerance: 0.1, unit: "t/ha",
                                                             units: [NumericUnit(name: "kg/ha", multiplier: 1000)]))

    @Test func aNumberInAnyOfTheQuestionsUnitsIsReadInItsOwn() throws {
        #expect(try yield.isCorrect(.text("2.5 t/ha")))
        #expect(try yield.isCorrect(.text("2550 kg/ha")))
        #expect(try yield.isCorrect(.text("2,45")))
        #expect(try yield.isCorrect(.text("3000 kg/ha")) == false)
        #expect(try yield.normalized(.text("2500 kg/ha")) == .number(2.5))
        #expect(throws: GradingError.answerDoesNotFitKind(expected: .numeric)) { try yield.isCorrect(.text("2500 g/ha")) }
    }

    @Test func otherUnitsNeedTheValuesOwnUnitAndSensibleMultipliers() {
        let noBase = Question(text: "How far?", body: .numeric(value: 1, tolerance: 0, unit: nil, units: [NumericUnit(name: "m", multiplier: 1000)]))
        #expect(noBase.validationErrors().map(\.field) == ["unit"])
        let bad = Question(text: "How far?", body: .numeric(value: 1, tolerance: 0, unit: "km", units: [
            NumericUnit(name: "m", multiplier: 0), NumericUnit(name: "KM", multiplier: 2), NumericUnit(name: "m2", multiplier: 1),
        ]))
        #expect(bad.validationErrors().map(\.field) == ["units[1].name", "units[0].multiplier", "units[2].name"])
    }
}
