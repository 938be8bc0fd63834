import Foundation
import QuizCore
import Testing

/// The new kinds' grading: what a player earns for each shape of answer, and which answers are
/// refused as malformed rather than graded wrong.
@Suite struct OrderingTests {
    let planets = Ordering(items: ["Mercury", "Venus", "Earth", "Mars"])

    @Test func creditIsTheShareOfItemsInTheirRightPlace() throws {
        #expect(try planets.credit(for: [1, 2, 3, 4]) == .full)
        // Moodle's absolute position: swapping two neighbours costs both places.
        #expect(try planets.credit(for: [2, 1, 3, 4]).value == 0.5)
        #expect(try planets.placesRight([2, 1, 3, 4]) == [false, false, true, true])
        #expect(try planets.credit(for: [4, 3, 2, 1]) == .none)
        #expect(try planets.isWhollyRight([1, 2, 3, 4]))
        #expect(try !planets.isWhollyRight([1, 2, 4, 3]))
    }

    @Test func anAnswerThatIsNoOrderOfTheItemsIsRefused() {
        for bad in [[1, 2, 3], [1, 2, 3, 4, 5], [1, 1, 2, 3], [0, 1, 2, 3], [1, 2, 3, 9], []] {
            #expect(throws: GradingError.notAnOrder(itemCount: 4)) { try planets.credit(for: bad) }
        }
    }

    @Test func itemsAreThreeToEightDistinctTexts() {
        #expect(planets.validationErrors().isEmpty)
        #expect(Ordering(items: ["a", "b"]).validationErrors().map(\.field) == ["items"])
        #expect(Ordering(items: (1...9).map(String.init)).validationErrors().map(\.field) == ["items"])
        let repeated = Ordering(items: ["Mars", "Venus", " mars "]).validationErrors()
        #expect(repeated.map(\.field) == ["items[2]"])
        #expect(repeated.first?.message.contains("items[0]") == true)
        #expect(Ordering(items: ["a", " ", String(repeating: "x", count: 201)]).validationErrors().map(\.field)
            == ["items[1]", "items[2]"])
    }
}

@Suite struct MatchingTests {
    let animals = Matching(
        pairs: [.init(prompt: "cat", answer: "mammal"), .init(prompt: "dog", answer: "Mammal"),
                .init(prompt: "eagle", answer: "bird")],
        extras: ["fish"])

    @Test func answersAreOfferedOnceEachThenTheExtras() {
        #expect(animals.answers == ["mammal", "bird", "fish"])
        #expect(animals.rightAnswerIds == [1, 1, 2])
    }

    @Test func creditIsTheShareOfPromptsMatchedRight() throws {
        #expect(try animals.credit(for: [1: 1, 2: 1, 3: 2]) == .full)
        #expect(try animals.promptsRight([1: 1, 2: 3, 3: 2]) == [true, false, true])
        #expect(abs(try animals.credit(for: [1: 1, 2: 3, 3: 2]).value - 2.0 / 3) < 1e-12)
        // A prompt left unmatched counts as wrong.
        #expect(abs(try animals.credit(for: [3: 2]).value - 1.0 / 3) < 1e-12)
        #expect(try animals.credit(for: [:]) == .none)
    }

    @Test func unknownPromptsAndAnswersAreRefused() {
        #expect(throws: GradingError.unknownPart(4)) { try animals.credit(for: [4: 1]) }
        #expect(throws: GradingError.unknownPart(0)) { try animals.credit(for: [0: 1]) }
        #expect(throws: GradingError.unknownPart(4)) { try animals.credit(for: [1: 4]) }
    }

    @Test func pairsAndExtrasAreChecked() {
        #expect(animals.validationErrors().isEmpty)
        let one = Matching(pairs: [.init(prompt: "a", answer: "b")])
        #expect(one.validationErrors().map(\.field) == ["pairs"])
        let clash = Matching(pairs: [.init(prompt: "cat", answer: "mammal"), .init(prompt: "Cat", answer: "")],
                             extras: ["MAMMAL"])
        #expect(clash.validationErrors().map(\.field) == ["pairs[1].prompt", "pairs[1].answer", "extras[0]"])
    }
}

@Suite struct EstimateTests {
    let year = Estimate(minimum: 1900, maximum: 2000, step: 1, value: 1969, margin: 10)

    @Test func creditFallsFromTheValueToNothingAtTheMargin() throws {
        #expect(try year.credit(for: 1969) == .full)
        #expect(try year.credit(for: 1964).value == 0.5)
        #expect(try year.credit(for: 1974).value == 0.5)
        #expect(try year.credit(for: 1979) == .none)
        #expect(try year.credit(for: 1900) == .none)
        let exact = Estimate(minimum: 0, maximum: 1, step: 0.1, value: 0.3, margin: 0)
        #expect(try exact.credit(for: 0.1 + 0.2) == .full)
        #expect(try exact.credit(for: 0.4) == .none)
    }

    @Test func anAnswerOutsideTheRangeIsRefused() {
        for bad in [1899.0, 2000.5, .nan, .infinity] {
            #expect(throws: GradingError.outOfRange(1900...2000)) { try year.credit(for: bad) }
        }
    }

    @Test func theRangeStepValueAndMarginAreChecked() {
        #expect(year.validationErrors().isEmpty)
        #expect(Estimate(minimum: 5, maximum: 5, step: 1, value: 5, margin: 0).validationErrors().map(\.field) == ["maximum"])
        #expect(Estimate(minimum: 0, maximum: 10, step: 0, value: 11, margin: -1).validationErrors().map(\.field)
            == ["value", "step", "margin"])
        #expect(Estimate(minimum: 0, maximum: 1e9, step: 1, value: 0, margin: 1).validationErrors().map(\.field) == ["step"])
        #expect(Estimate(minimum: .nan, maximum: 1, step: 1, value: 0, margin: 1).validationErrors().map(\.field) == ["minimum"])
    }
}

@Suite struct GapFillTests {
    let sentence = GapFill(
        text: "The [[1]] flows through [[2]], [[3]] km long.",
        gaps: [
            .init(.choice([Alternative("Seine"), Alternative("Rhine", fraction: Fraction(0.5)!), Alternative("Po", fraction: .zero)])),
            .init(.typed([Alternative("Paris"), Alternative("Île-de-France", fraction: Fraction(0.5)!)]), weight: 2),
            .init(.number(value: 777, tolerance: 5, units: [NumericUnit(name: "km"), NumericUnit(name: "m", multiplier: 1000)])),
        ])

    @Test func theTextIsCutAtItsMarkers() {
        #expect(sentence.segments == [.text("The "), .gap(0), .text(" flows through "), .gap(1), .text(", "), .gap(2), .text(" km long.")])
        // Brackets that are no marker of an existing gap stay text.
        let odd = GapFill(text: "a [[x]] b [[9]] c [[1]]", gaps: [.init(.typed([Alternative("y")]))])
        #expect(odd.segments == [.text("a [[x]] b [[9]] c "), .gap(0)])
        // A gap right after a bracket ("array[[[1]]]") keeps the bracket as text.
        #expect(GapFill(text: "a[[[1]]]", gaps: [.init(.typed([Alternative("i")]))]).segments == [.text("a["), .gap(0), .text("]")])
        // Brackets by the tens of thousands are read in one pass (they took 28 s when each "[[" searched the rest).
        let brackets = GapFill(text: String(repeating: "[", count: 200_000) + "[[1]]", gaps: [.init(.typed([Alternative("i")]))])
        #expect(brackets.segments.last == .gap(0))
        #expect(GapFill(text: String(repeating: "[[", count: 100_000), gaps: []).validationErrors().map(\.field) == ["passage"])
    }

    @Test func creditIsTheWeightedShareOfTheGaps() throws {
        let right: [Int: GapFill.GapAnswer] = [1: .choice(1), 2: .text("paris"), 3: .text("777000 m")]
        #expect(try sentence.credit(for: right) == .full)
        #expect(try sentence.gapCredits([1: .choice(2), 2: .text("ile de france"), 3: .text("780 km")]).map(\.value) == [0.5, 0.5, 1])
        // Weights 1, 2, 1: (0.5 + 2 × 0.5 + 1) / 4.
        #expect(try sentence.credit(for: [1: .choice(2), 2: .text("ile de france"), 3: .text("780 km")]).value == 0.625)
        // Only the typed gap, right: 2 of 4.
        #expect(try sentence.credit(for: [2: .text("Paris")]).value == 0.5)
        #expect(try sentence.credit(for: [3: .text("777 miles")]) == .none)
    }

    @Test func answersForGapsThatDoNotExistOrDoNotFitAreRefused() {
        #expect(throws: GradingError.unknownPart(4)) { try sentence.credit(for: [4: .text("x")]) }
        #expect(throws: GradingError.unknownPart(1)) { try sentence.credit(for: [1: .text("Seine")]) }
        #expect(throws: GradingError.unknownPart(2)) { try sentence.credit(for: [2: .choice(1)]) }
        #expect(throws: GradingError.unknownChoice(4)) { try sentence.credit(for: [1: .choice(4)]) }
    }

    @Test func everyGapNeedsOneMarkerAndAFullCreditAnswer() {
        #expect(sentence.validationErrors().isEmpty)
        let broken = GapFill(text: "[[1]] and [[1]]", gaps: [
            .init(.typed([Alternative("a", fraction: Fraction(0.5)!)])),
            .init(.choice([Alternative("x"), Alternative("X")]), weight: 11),
        ])
        #expect(broken.validationErrors().map(\.field) == [
            "gaps[0]", "gaps[1]", "gaps[0].answers", "gaps[1].weight", "gaps[1].choices[1]",
        ])
        #expect(GapFill(text: "none", gaps: []).validationErrors().map(\.field) == ["gaps"])
    }
}

@Suite struct CreditTests {
    @Test func creditIsClampedAndReadsAsAPercentage() throws {
        #expect(Credit(1.5) == .full)
        #expect(Credit(-0.2) == .none)
        #expect(Credit(.nan) == .none)
        #expect(Credit(right: 2, of: 3).percent == 67)
        #expect(Credit(right: 1, of: 3).isPartial)
        #expect(Credit(1.0 / 3 + 1.0 / 3 + 1.0 / 3).isFull)
        #expect(Credit(0.5).of(10) == 5)
        #expect(abs(try #require(Fraction(percent: -33.33333)).value + 0.3333333) < 1e-12)
        // Moodle writes thirds as 33.33333: three of them are the whole.
        #expect(Credit(3 * 0.3333333).isFull)
        #expect(Fraction(percent: 150) == nil)
    }

    @Test func unitsWithMultipliersReadAsTheFirstUnit() {
        let units = [NumericUnit(name: "t/ha"), NumericUnit(name: "kg/ha", multiplier: 1000)]
        #expect(NumericUnit.read("2.5 t/ha", units: units) == 2.5)
        #expect(NumericUnit.read("2500 kg/ha", units: units) == 2.5)
        #expect(NumericUnit.read("2500kg/ha", units: units) == 2.5)
        #expect(NumericUnit.read("2,5", units: units) == 2.5)
        #expect(NumericUnit.read("2.5 ha", units: units) == nil)
        #expect(NumericUnit.read("lots", units: units) == nil)
    }
}

@Suite struct OpinionTests {
    @Test func aPollCountsChoicesAndRefusesUnknownOnes() {
        let poll = Poll(choices: ["Tea", "Coffee", "Neither"])
        #expect(poll.tally([2: 5, 1: 1]) == [1, 5, 0])
        #expect(throws: GradingError.unknownChoice(4)) { try poll.check(4) }
        #expect(Poll(choices: ["Tea", "tea"]).validationErrors().map(\.field) == ["choices[1]"])
    }

    @Test func aWordCloudCountsNormalisedEntriesAndHidesWhatTheHostHides() {
        var tally = WordCloud.Tally()
        for entry in ["Helsinki", "helsinki!", "  HELSINKI", "Oslo", "Tallinn", "Oslo", "Helsinki"] { tally.add(entry) }
        let punctuation = tally.add("!!!")
        let tooLong = tally.add(String(repeating: "a", count: 41))
        #expect(!punctuation && !tooLong)
        #expect(tally.top(2).map(\.text) == ["Helsinki", "Oslo"])
        #expect(tally.top(5).map(\.count) == [4, 2, 1])
        tally.hide("oslo")
        #expect(tally.top(5).map(\.key) == ["helsinki", "tallinn"])
    }

    @Test func aWordCloudKeepsAtMostItsLimitOfDistinctWords() {
        var tally = WordCloud.Tally()
        for index in 0..<(WordCloud.Tally.maxKeys + 20) { tally.add("word\(index)") }
        tally.add("word0")
        #expect(tally.top(1_000).count == WordCloud.Tally.maxKeys)
        #expect(tally.others == 20)
        #expect(tally.top(1).first?.count == 2)
    }
}

/// Partial credit in the kinds Quizbox had, and the new kinds as questions: verdicts, points,
/// the correct answer shown afterwards and what is kept with an answer.
@Suite struct QuestionCreditTests {
    private func choices(_ spec: [(String, Bool, Double?)]) -> [Choice] {
        spec.enumerated().map { Choice(id: $0.offset + 1, text: $0.element.0, isCorrect: $0.element.1, fraction: $0.element.2.flatMap { Fraction($0) }) }
    }

    @Test func authorFractionsGivePartialCreditInSingleAndMultipleChoice() throws {
        let single = Question(text: "Capital of Australia?", points: 4, body: .singleChoice(choices([
            ("Canberra", true, nil), ("Sydney", false, 0.5), ("Perth", false, nil),
        ])))
        #expect(single.validationErrors().isEmpty)
        #expect(try single.verdict(for: .choice(1)) == (.correct, .full))
        #expect(try single.verdict(for: .choice(2)) == (.partlyCorrect, Credit(0.5)))
        #expect(try single.verdict(for: .choice(3)) == (.wrong, .none))

        let multiple = Question(text: "Primes?", points: 3, body: .multipleChoice(choices([
            ("2", true, 1.0 / 3), ("3", true, 1.0 / 3), ("5", true, 1.0 / 3), ("4", false, -1.0 / 3), ("9", false, -1.0 / 3),
        ])))
        #expect(multiple.validationErrors().isEmpty)
        #expect(try multiple.credit(for: .choices([1, 2, 3])).isFull)
        #expect(abs(try multiple.credit(for: .choices([1, 2])).value - 2.0 / 3) < 1e-9)
        // A wrong pick takes a right one's worth away, never below nothing.
        #expect(abs(try multiple.credit(for: .choices([1, 2, 4])).value - 1.0 / 3) < 1e-9)
        #expect(try multiple.credit(for: .choices([4, 5])) == .none)
        // Without fractions, multiple choice stays all or nothing.
        let plain = Question(text: "Primes?", body: .multipleChoice(choices([("2", true, nil), ("3", true, nil), ("4", false, nil)])))
        #expect(try plain.credit(for: .choices([1])) == .none)
    }

    @Test func fractionsThatDoNotAddUpAreRefused() {
        let short = Question(text: "Primes?", body: .multipleChoice(choices([("2", true, 0.5), ("3", true, 0.25), ("4", false, nil)])))
        #expect(short.validationErrors().map(\.field) == ["choices"])
        let mismarked = Question(text: "Q?", body: .singleChoice(choices([("a", true, 0.5), ("b", false, 1), ("c", false, nil)])))
        #expect(mismarked.validationErrors().map(\.field) == ["choices[0].fraction", "choices[1].fraction"])
    }

    @Test func pointsAreWholeAndAPartlyRightAnswerNeverEarnsThemAll() {
        #expect(Credit.full.points(of: 5) == 5)
        #expect(Credit(0.5).points(of: 4) == 2)
        #expect(Credit(0.99).points(of: 10) == 9)
        #expect(Credit(0.6).points(of: 1) == 0)
        #expect(Credit(0.1).points(of: 2) == 0)
        #expect(Credit.none.points(of: 7) == 0)
    }

    @Test func pollsAndWordCloudsAreCountedNotGraded() throws {
        let poll = Question(text: "Tea or coffee?", body: .poll(Poll(choices: ["Tea", "Coffee"])))
        #expect(try poll.verdict(for: .choice(2)) == (.counted, .none))
        #expect(try !poll.isCorrect(.choice(1)))
        #expect(throws: GradingError.unknownChoice(3)) { try poll.credit(for: .choice(3)) }
        let cloud = Question(text: "One word for Monday?", body: .wordCloud)
        #expect(try cloud.verdict(for: .text("Coffee")).verdict == .counted)
        #expect(throws: GradingError.answerDoesNotFitKind(expected: .wordCloud)) { try cloud.credit(for: .text("?!")) }
        #expect(poll.correctAnswer == .none)
        let slide = Question(text: "Round two: rivers", body: .slide)
        #expect(throws: GradingError.answerDoesNotFitKind(expected: .slide)) { try slide.credit(for: .text("x")) }
    }

    @Test func theNewKindsGradeAsQuestionsAndShowTheirRightAnswers() throws {
        let ordering = Question(text: "Oldest first", points: 4, body: .ordering(Ordering(items: ["Rome", "Paris", "Helsinki"])))
        #expect(try ordering.verdict(for: .order([1, 3, 2])).verdict == .partlyCorrect)
        #expect(ordering.correctAnswer.display == "Rome → Paris → Helsinki")
        #expect(ordering.display(.order([2, 1, 3])) == "Paris → Rome → Helsinki")

        let estimate = Question(text: "Moon landing?", body: .estimate(Estimate(minimum: 1900, maximum: 2000, step: 1, value: 1969, margin: 10, unit: "AD")))
        #expect(try estimate.credit(for: .text("1964 AD")).value == 0.5)
        #expect(try estimate.normalized(.text("1964")) == .number(1964))
        #expect(estimate.correctAnswer.display == "1969 AD")

        let matching = Question(text: "Match", body: .matching(Matching(pairs: [.init(prompt: "fi", answer: "Helsinki"), .init(prompt: "se", answer: "Stockholm")])))
        #expect(try matching.isCorrect(.matches([1: 1, 2: 2])))
        #expect(matching.display(.matches([1: 2])) == "fi: Stockholm; se: —")
        #expect(matching.correctAnswer.display == "fi: Helsinki; se: Stockholm")
    }

    @Test func aPartialCreditIsKeptWithTheAnswerAndReadBack() throws {
        let kept = GivenAnswer(.order([2, 1, 3]), credit: Credit(1.0 / 3))
        #expect(kept.stored == #"{"credit":0.333,"order":[2,1,3]}"#)
        let read = try #require(GivenAnswer(stored: kept.stored))
        #expect(read.answer == .order([2, 1, 3]))
        #expect(read.credit(correct: false).value == 0.333)
        // All or nothing is the row's `correct`, not repeated in the answer.
        #expect(GivenAnswer(.choice(1), credit: .full).stored == #"{"choiceId":1}"#)
        #expect(GivenAnswer(stored: #"{"choiceId":1}"#)?.credit(correct: true) == .full)
    }

    @Test func everyNewAnswerShapeRoundTripsThroughItsStoredForm() throws {
        let answers: [Answer] = [
            .order([3, 1, 2]), .matches([1: 2, 2: 1]), .gaps([1: .choice(2), 2: .text("Pa\"ris\n")]),
        ]
        for answer in answers {
            let stored = GivenAnswer(answer, late: true).stored
            #expect(GivenAnswer(stored: stored) == GivenAnswer(answer, late: true), "\(stored)")
            let encoded = try JSONEncoder().encode(GivenAnswer(answer))
            #expect(try JSONDecoder().decode(GivenAnswer.self, from: encoded) == GivenAnswer(answer))
        }
        #expect(GivenAnswer(stored: #"{"matches":{"x":1}}"#) == nil)
        #expect(GivenAnswer(stored: #"{"gaps":{"1":{}}}"#) == nil)
    }
}
