import Foundation
import QuizCore
import Testing

@Suite struct QuestionValidationTests {
    private func choices(_ texts: [String], correct: Set<Int> = [1]) -> [Choice] {
        texts.enumerated().map { Choice(id: $0.offset + 1, text: $0.element, isCorrect: correct.contains($0.offset + 1)) }
    }

    private func single(_ texts: [String], correct: Set<Int> = [1], text: String = "Capital of France?") -> Question {
        Question(text: text, body: .singleChoice(choices(texts, correct: correct)))
    }

    private func fields(_ question: Question) -> [String] {
        question.validationErrors().map(\.field)
    }

    @Test func aWellFormedQuestionOfEveryKindIsValid() throws {
        let questions: [Question] = [
            single(["Paris", "Lyon", "Nice"]),
            Question(text: "Primes?", body: .multipleChoice(choices(["2", "3", "4"], correct: [1, 2]))),
            Question(text: "The sky is blue.", body: .trueFalse(true)),
            Question(text: "Capital of Peru?", body: .typedAnswer(["Lima"])),
            Question(text: "Pi?", body: .numeric(value: 3.14, tolerance: 0.01, unit: nil)),
            Question(text: "Name the Beatles", body: .nameAll(
                items: [NameAllItem(answer: "John", alternates: ["John Lennon"]), NameAllItem(answer: "Paul")],
                timeLimitSeconds: 60, typoTolerance: false)),
        ]
        for question in questions {
            try question.validate()
        }
    }

    @Test func blankTextIsRejected() {
        let question = single(["Paris", "Lyon"], text: " \n\t ")
        #expect(throws: Question.ValidationError(field: "text", message: "is empty")) { try question.validate() }
    }

    @Test func textLongerThanTheLimitIsRejectedButTheLimitItselfIsFine() {
        #expect(fields(single(["a1", "b1"], text: String(repeating: "é", count: Question.maxTextLength))) == [])
        #expect(fields(single(["a1", "b1"], text: String(repeating: "x", count: Question.maxTextLength + 1))) == ["text"])
    }

    @Test func explanationIsLimitedTo2000Characters() {
        var question = single(["Paris", "Lyon"])
        question.explanation = String(repeating: "x", count: 2_001)
        #expect(fields(question) == ["explanation"])
        question.explanation = String(repeating: "x", count: 2_000)
        #expect(fields(question) == [])
    }

    @Test func pointsMustBeBetweenZeroAndOneHundred() {
        var question = single(["Paris", "Lyon"])
        for (points, valid) in [(-1, false), (0, true), (100, true), (101, false)] {
            question.points = points
            #expect(fields(question) == (valid ? [] : ["points"]), "points \(points)")
        }
    }

    @Test func singleChoiceNeedsTwoToTenChoices() {
        #expect(fields(single(["Paris"])) == ["choices"])
        #expect(fields(single((1...11).map { "Option \($0)" })) == ["choices"])
        #expect(fields(single((1...10).map { "Option \($0)" })) == [])
    }

    @Test func singleChoiceNeedsExactlyOneCorrectChoice() {
        #expect(single(["Paris", "Lyon"], correct: []).validationErrors()
            == [.init(field: "choices", message: "needs exactly one correct choice, has 0")])
        #expect(fields(single(["Paris", "Lyon"], correct: [1, 2])) == ["choices"])
    }

    @Test func multipleChoiceNeedsAtLeastOneCorrectChoice() {
        let none = Question(text: "Primes?", body: .multipleChoice(choices(["2", "3"], correct: [])))
        #expect(fields(none) == ["choices"])
        let all = Question(text: "Primes?", body: .multipleChoice(choices(["2", "3"], correct: [1, 2])))
        #expect(fields(all) == [])
    }

    @Test func choiceTextsMustBeNonEmptyShortAndDistinct() {
        #expect(fields(single(["Paris", "  "])) == ["choices[1].text"])
        #expect(fields(single(["Paris", String(repeating: "y", count: 501)])) == ["choices[1].text"])
        let duplicate = single(["Saint-Étienne", "Lyon", "SAINT-ÉTIENNE "])
        #expect(duplicate.validationErrors()
            == [.init(field: "choices[2].text", message: "repeats choices[0] (\"Saint-Étienne\")")])
    }

    @Test func theFastChoiceKeyAgreesWithTheFullOneOnASCII() {
        for text in ["  Paris ", "C#", "C++", "\tTwo\n\nLines  here\r", "UPPER lower 123 -3.5", "", "   ", "a\u{0B}b\u{0C}c"] {
            let slow = text.precomposedStringWithCompatibilityMapping.lowercased()
                .split(whereSeparator: \.isWhitespace).joined(separator: " ")
            #expect(Question.choiceKey(text) == slow, "\(text.debugDescription)")
        }
        #expect(Question.choiceKey("ÉCOLE  Zürich") == "école zürich", "non-ASCII takes the full path")
    }

    @Test func choicesThatDifferOnlyInPunctuationAreDistinct() {
        #expect(fields(single(["C#", "C++", "C"])) == [])
        #expect(fields(single(["3", "-3", "3.0"])) == [])
    }

    @Test func punctuationOnlyChoicesAreDistinctWhenTheirTextDiffers() {
        #expect(fields(single(["?", "!", "."])) == [])
        #expect(fields(single(["?", " ? "])) == ["choices[1].text"])
    }

    @Test func choiceIdsMustNumberTheChoicesFromOne() {
        let question = Question(text: "Q?", body: .singleChoice([
            Choice(id: 1, text: "a1", isCorrect: true), Choice(id: 3, text: "b1", isCorrect: false),
        ]))
        #expect(fields(question) == ["choices[1].id"])
    }

    @Test func typedAnswerNeedsOneToTwentyNonEmptyAnswers() {
        #expect(fields(Question(text: "Q?", body: .typedAnswer([]))) == ["answers"])
        #expect(fields(Question(text: "Q?", body: .typedAnswer((1...21).map { "a\($0)" }))) == ["answers"])
        #expect(fields(Question(text: "Q?", body: .typedAnswer(["Lima", "?!"]))) == ["answers[1]"])
    }

    @Test func numericNeedsFiniteValueAndNonNegativeFiniteTolerance() {
        func numeric(_ value: Double, _ tolerance: Double) -> Question {
            Question(text: "Q?", body: .numeric(value: value, tolerance: tolerance, unit: "km"))
        }
        #expect(fields(numeric(.nan, 0)) == ["value"])
        #expect(fields(numeric(.infinity, 0)) == ["value"])
        #expect(fields(numeric(1, -0.5)) == ["tolerance"])
        #expect(fields(numeric(1, .infinity)) == ["tolerance"])
        #expect(fields(numeric(-1, 0)) == [])
    }

    @Test func nameAllItemsMustBeNonEmptyAndNotCollide() {
        func nameAll(_ items: [NameAllItem], seconds: Int = 300) -> Question {
            Question(text: "Name them", body: .nameAll(items: items, timeLimitSeconds: seconds, typoTolerance: true))
        }
        #expect(fields(nameAll([])) == ["items"])
        #expect(fields(nameAll((0...1_000).map { NameAllItem(answer: "item \($0)") })) == ["items"])
        #expect(fields(nameAll([NameAllItem(answer: "—")])) == ["items[0].answer"])
        #expect(fields(nameAll([NameAllItem(answer: "Paris", alternates: [""])])) == ["items[0].alternates[0]"])
        #expect(fields(nameAll([NameAllItem(answer: "Paris"), NameAllItem(answer: "PARIS!")])) == ["items[1].answer"])
        #expect(fields(nameAll([
            NameAllItem(answer: "Rome"), NameAllItem(answer: "Roma", alternates: ["Rome"]),
        ])) == ["items[1].alternates[0]"])
        // An item repeating its own spelling is harmless.
        #expect(fields(nameAll([NameAllItem(answer: "Paris", alternates: ["paris"])])) == [])
    }

    @Test func nameAllTimeLimitIsTenSecondsToOneHour() {
        for (seconds, valid) in [(9, false), (10, true), (3_600, true), (3_601, false)] {
            let question = Question(text: "Name them", body: .nameAll(
                items: [NameAllItem(answer: "x")], timeLimitSeconds: seconds, typoTolerance: false))
            #expect(fields(question) == (valid ? [] : ["timeLimitSeconds"]), "\(seconds) s")
        }
    }

    @Test func everyBrokenRuleIsListedAndValidateThrowsTheFirst() {
        var question = single(["", "Lyon"], correct: [], text: "")
        question.points = 500
        #expect(fields(question) == ["text", "points", "choices[0].text", "choices"])
        #expect(throws: Question.ValidationError(field: "text", message: "is empty")) { try question.validate() }
    }
}
