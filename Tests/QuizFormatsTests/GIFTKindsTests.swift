import QuizCore
import QuizFormats
import Testing

/// Matching, descriptions and partial credit in GIFT, read and written.
@Suite struct GIFTKindsTests {
    @Test func matchingReadsItsPairsAndExtraAnswers() throws {
        let question = try GIFTSupport.question("""
            Match the capitals. {
            =France -> Paris
            =Spain -> Madrid
            =Italy -> Rome
            = -> Lisbon
            }
            """)
        #expect(question.body == .matching(Matching(pairs: [
            Matching.Pair(prompt: "France", answer: "Paris"), Matching.Pair(prompt: "Spain", answer: "Madrid"),
            Matching.Pair(prompt: "Italy", answer: "Rome"),
        ], extras: ["Lisbon"])))
    }

    @Test func matchingWithTwoPairsIsReadToo() throws {
        let question = try GIFTSupport.question("Match. {=cat -> mammal =trout -> fish}")
        #expect(question.body == .matching(Matching(pairs: [Matching.Pair(prompt: "cat", answer: "mammal"), Matching.Pair(prompt: "trout", answer: "fish")])))
    }

    @Test func aMatchingAnswerWithoutAnArrowIsAProblem() {
        let problems = GIFTSupport.problems("Match. {=cat -> mammal =trout}")
        #expect(problems.map(\.message) == [#""trout" has no '->' — in a matching question write each pair as =prompt -> answer"#])
    }

    @Test func textWithNoAnswerBlockIsASlide() throws {
        let questions = try GIFTSupport.questions("""
            ::Intro:: Part two: the planets.

            Is Mars red? {T}
            """)
        #expect(questions.map(\.body) == [.slide, .trueFalse(true)])
        #expect(questions.first?.text == "Part two: the planets.")
    }

    @Test func choiceWeightsAreKeptAsPartialCredit() throws {
        let single = try GIFTSupport.read("Capital? {=Paris ~%50%Lutetia ~%-25%Rome}")
        #expect(single.warnings.isEmpty)
        #expect(GIFTSupport.questions(in: single.bank).first?.body == .singleChoice([
            Choice(id: 1, text: "Paris", isCorrect: true, fraction: .full),
            Choice(id: 2, text: "Lutetia", isCorrect: false, fraction: Fraction(0.5)),
            Choice(id: 3, text: "Rome", isCorrect: false, fraction: Fraction(-0.25)),
        ]))
        let multiple = try GIFTSupport.question("Planets? {~%60%Mars ~%40%Venus ~%-100%Moon}")
        #expect(multiple.body.choices.map(\.fraction) == [Fraction(0.6), Fraction(0.4), Fraction(-1)])
        #expect(multiple.kind == .multipleChoice)
    }

    @Test func orderingReadsOneItemALineAfterItsHeader() throws {
        let result = try GIFTSupport.read("Order these. {>2 ALL VERTICAL\n  first\nsecond\n\tthird\n####Because.}")
        let question = try #require(GIFTSupport.questions(in: result.bank).first)
        #expect(question.body == .ordering(Ordering(items: ["first", "second", "third"])))
        #expect(question.explanation == "Because.")
        #expect(result.warnings.map(\.message) == ["Moodle shows 2 of the 3 items; Quizbox asks for all of them in order"])
    }

    @Test func typedPartialCreditIsKeptAndWrittenBack() throws {
        let result = try GIFTSupport.read("Capital? {=Paris =%50%Lutetia =%25%lutetia =%0%Lyon}")
        let question = try #require(GIFTSupport.questions(in: result.bank).first)
        // The same answer twice counts once, at its best; a worthless one is no answer at all.
        #expect(question.body == .typedAnswer(["Paris"], partial: [Alternative("Lutetia", fraction: Fraction(0.5)!)]))
        #expect(result.warnings.isEmpty)
        let again = try GIFTSupport.read(GIFTWriter().write(result.bank).text)
        #expect(GIFTSupport.questions(in: again.bank).first?.body == question.body)
    }

    @Test func matchingSlidesAndFractionsSurviveTheWriterAndTheReader() throws {
        let questions = [
            Question(text: "Match them", body: .matching(Matching(pairs: [
                Matching.Pair(prompt: "cat", answer: "mammal"), Matching.Pair(prompt: "dog = pet", answer: "mammal"),
                Matching.Pair(prompt: "trout", answer: "fish {wet}"),
            ], extras: ["bird"]))),
            Question(text: "Part two: the planets", body: .slide),
            Question(text: "Order from the Sun", explanation: "Mercury is closest.", body: .ordering(Ordering(items: ["Mercury", "Venus {2}", "Earth\nour home", "Mars"]))),
        ] + PartialCreditSamples.questions
        let bank = Bank(subjects: [BankSubject(name: "S", topics: [BankTopic(name: "T", questions: questions)])])
        let output = GIFTWriter().write(bank)
        #expect(output.skipped.isEmpty)
        let read = try GIFTSupport.read(output.text)
        #expect(GIFTSupport.questions(in: read.bank) == questions)
        #expect(read.warnings.isEmpty)
    }

    @Test func whatGIFTCannotHoldIsListedAsLeftOut() {
        let questions = [
            Question(text: "Two pairs", body: .matching(Matching(pairs: [Matching.Pair(prompt: "a", answer: "1"), Matching.Pair(prompt: "b", answer: "2")]))),
            Question(text: "Arrow", body: .matching(Matching(pairs: [
                Matching.Pair(prompt: "a -> b", answer: "1"), Matching.Pair(prompt: "b", answer: "2"), Matching.Pair(prompt: "c", answer: "3"),
            ]))),
            Question(text: "Gaps", body: .gapFill(GapFill(text: "[[1]]", gaps: [GapFill.WeightedGap(.typed([Alternative("x")]))]))),
            Question(text: "Read me", explanation: "More", body: .slide),
            Question(text: "Poll", body: .poll(Poll(choices: ["a", "b"]))),
        ]
        let bank = Bank(subjects: [BankSubject(name: "S", topics: [BankTopic(name: "T", questions: questions)])])
        let output = GIFTWriter().write(bank)
        #expect(output.skipped.map(\.question) == questions.map(\.text))
        #expect(output.skipped[0].message == "a matching question needs at least 3 pairs and extra answers in GIFT, which Moodle requires")
        #expect(output.text.isEmpty)
    }
}
