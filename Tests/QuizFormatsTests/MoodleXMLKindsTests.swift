import Foundation
import QuizCore
import QuizFormats
import Testing

/// Matching, ordering, cloze, description and partial credit, read and written.
@Suite struct MoodleXMLKindsTests {
    @Test func matchingReadsItsSubquestionsAndAnEmptyOneAsAnExtraAnswer() throws {
        let question = try onlyMoodleXMLQuestion(moodleQuiz("""
              <question type="matching">
                <name><text>Capitals</text></name>
                <questiontext format="html"><text><![CDATA[<p>Match each country with its capital.</p>]]></text></questiontext>
                <shuffleanswers>true</shuffleanswers>
                <subquestion format="html"><text><![CDATA[<p>France</p>]]></text><answer><text>Paris</text></answer></subquestion>
                <subquestion format="html"><text><![CDATA[<p>Spain</p>]]></text><answer><text>Madrid</text></answer></subquestion>
                <subquestion format="html"><text></text><answer><text>Lisbon</text></answer></subquestion>
              </question>

            """))
        #expect(question.text == "Match each country with its capital.")
        #expect(question.body == .matching(Matching(pairs: [
            Matching.Pair(prompt: "France", answer: "Paris"), Matching.Pair(prompt: "Spain", answer: "Madrid"),
        ], extras: ["Lisbon"])))
    }

    @Test func orderingTakesItsItemsInThePlacesTheirFractionsSay() throws {
        let question = try onlyMoodleXMLQuestion(moodleQuiz("""
              <question type="ordering">
                <name><text>Planets</text></name>
                <questiontext format="html"><text>Order from the Sun.</text></questiontext>
                <layouttype>VERTICAL</layouttype><selecttype>ALL</selecttype><gradingtype>ABSOLUTE_POSITION</gradingtype>
                <answer fraction="3.0000000" format="moodle_auto_format"><text>Earth</text></answer>
                <answer fraction="1.0000000" format="moodle_auto_format"><text>Mercury</text></answer>
                <answer fraction="2.0000000" format="moodle_auto_format"><text>Venus</text></answer>
              </question>

            """))
        #expect(question.body == .ordering(Ordering(items: ["Mercury", "Venus", "Earth"])))
    }

    @Test func clozeTakesAFirstLineWithoutGapsAsItsText() throws {
        let question = try onlyMoodleXMLQuestion(moodleQuiz("""
              <question type="cloze">
                <name><text>Geography cloze</text></name>
                <questiontext format="html"><text><![CDATA[<p>Complete the sentence.</p><p>The capital of {1:MULTICHOICE:=France~Spain} is {2:SA:=Paris~%50%Lutetia}.</p>]]></text></questiontext>
              </question>

            """))
        #expect(question.text == "Complete the sentence.")
        #expect(question.body == .gapFill(GapFill(text: "The capital of [[1]] is [[2]].", gaps: [
            GapFill.WeightedGap(.choice([Alternative("France"), Alternative("Spain", fraction: .zero)])),
            GapFill.WeightedGap(.typed([Alternative("Paris"), Alternative("Lutetia", fraction: Fraction(0.5)!)]), weight: 2),
        ])))
    }

    @Test func clozeWithAGapOnItsFirstLineIsNamedByItsName() throws {
        let result = try readMoodleXML(moodleQuiz("""
              <question type="cloze">
                <name><text>Numbers</text></name>
                <questiontext format="plain_text"><text>Seven times six is {1:NUMERICAL:=42:0~%50%40:2}.</text></questiontext>
              </question>

            """))
        let question = try #require(moodleXMLQuestions(result.bank).first)
        #expect(question.text == "Numbers")
        #expect(question.body == .gapFill(GapFill(text: "Seven times six is [[1]].", gaps: [GapFill.WeightedGap(.number(value: 42, tolerance: 0, units: []))])))
        #expect(result.warnings.map(\.message) == [#"gap 1 keeps only its right value 42: Quizbox has one value per number gap, so "40:2" was dropped"#])
    }

    @Test func clozeWithABrokenGapIsAProblemAtItsQuestion() {
        let problems = moodleXMLProblems(moodleQuiz("""
              <question type="cloze">
                <name><text>Broken</text></name>
                <questiontext format="plain_text"><text>A {1:SHORTANSWER:=gap</text></questiontext>
              </question>

            """))
        #expect(problems.map(\.message) == ["gap 1 has no closing }"])
        #expect(problems.first?.line == 3)
        #expect(problems.first?.question == "Broken")
    }

    @Test func descriptionIsASlide() throws {
        let question = try onlyMoodleXMLQuestion(moodleQuiz("""
              <question type="description">
                <name><text>Intro</text></name>
                <questiontext format="html"><text>Part two: the planets.</text></questiontext>
                <defaultgrade>0</defaultgrade>
              </question>

            """))
        #expect(question.body == .slide)
        #expect(question.text == "Part two: the planets.")
    }

    @Test func multichoicePartialCreditIsKeptNegativeToo() throws {
        let single = try onlyMoodleXMLQuestion(moodleQuiz("""
              <question type="multichoice">
                <name><text>S</text></name><questiontext><text>Capital?</text></questiontext>
                <single>true</single>
                <answer fraction="100"><text>Paris</text></answer>
                <answer fraction="50"><text>Lutetia</text></answer>
                <answer fraction="-25"><text>Rome</text></answer>
              </question>

            """))
        #expect(single.body == .singleChoice([
            Choice(id: 1, text: "Paris", isCorrect: true, fraction: .full),
            Choice(id: 2, text: "Lutetia", isCorrect: false, fraction: Fraction(0.5)),
            Choice(id: 3, text: "Rome", isCorrect: false, fraction: Fraction(-0.25)),
        ]))
        let multiple = try onlyMoodleXMLQuestion(moodleQuiz("""
              <question type="multichoice">
                <name><text>M</text></name><questiontext><text>Planets?</text></questiontext>
                <single>false</single>
                <answer fraction="60"><text>Mars</text></answer>
                <answer fraction="40"><text>Venus</text></answer>
                <answer fraction="-100"><text>Moon</text></answer>
              </question>

            """))
        #expect(multiple.body.choices.map(\.fraction) == [Fraction(0.6), Fraction(0.4), Fraction(-1)])
        #expect(multiple.body.choices.map(\.isCorrect) == [true, true, false])
    }

    @Test func equalSharesStayAllOrNothing() throws {
        let question = try onlyMoodleXMLQuestion(moodleQuiz("""
              <question type="multichoice">
                <name><text>M</text></name><questiontext><text>Planets?</text></questiontext>
                <single>false</single>
                <answer fraction="50"><text>Mars</text></answer>
                <answer fraction="50"><text>Venus</text></answer>
                <answer fraction="0"><text>Moon</text></answer>
              </question>

            """))
        #expect(question.body.choices.allSatisfy { $0.fraction == nil })
    }

    @Test func everyNewKindSurvivesTheWriterAndTheReader() throws {
        let questions = [
            Question(text: "Match them", points: 2, body: .matching(Matching(pairs: [
                Matching.Pair(prompt: "cat", answer: "mammal"), Matching.Pair(prompt: "dog", answer: "mammal"),
                Matching.Pair(prompt: "trout <fish> & ]]>", answer: "fish"),
            ], extras: ["bird"]))),
            Question(text: "Order them", body: .ordering(Ordering(items: ["one", "two", "three", "four"]))),
            Question(text: "Fill the gaps", explanation: "Paris since 987.", body: .gapFill(GapFill(
                text: "The capital of [[1]] is [[2]], {at} [[3]] km.", gaps: [
                    GapFill.WeightedGap(.choice([Alternative("France"), Alternative("Spain", fraction: .zero), Alternative("Gaul", fraction: Fraction(0.5)!)])),
                    GapFill.WeightedGap(.typed([Alternative("Paris"), Alternative("Lutetia", fraction: Fraction(0.5)!)]), weight: 3),
                    GapFill.WeightedGap(.number(value: 0.5, tolerance: 0.01, units: [])),
                ]))),
            Question(text: "Part two", body: .slide),
        ] + PartialCreditSamples.questions
        for question in questions { #expect(question.validationErrors().isEmpty, "\(question.text)") }
        let bank = Bank(subjects: [BankSubject(name: "S", topics: [BankTopic(name: "T", quizzes: [BankQuiz(title: "Imported questions", questions: questions)])])])
        let output = MoodleXMLWriter().write(bank)
        #expect(output.skipped.isEmpty)
        let result = try readMoodleXML(output.text)
        #expect(moodleXMLQuestions(result.bank) == questions)
        #expect(result.warnings.isEmpty)
    }

    @Test func whatMoodleCannotHoldIsListedAsLeftOut() {
        let questions = [
            Question(text: "Poll", body: .poll(Poll(choices: ["a", "b"]))),
            Question(text: "Cloud", body: .wordCloud),
            Question(text: "Guess", body: .estimate(Estimate(minimum: 0, maximum: 10, step: 1, value: 5, margin: 2))),
            Question(text: "Units", body: .gapFill(GapFill(text: "[[1]]", gaps: [
                GapFill.WeightedGap(.number(value: 2.5, tolerance: 0, units: [NumericUnit(name: "t"), NumericUnit(name: "kg", multiplier: 1000)])),
            ]))),
            Question(text: "Odd credit", body: .singleChoice([
                Choice(id: 1, text: "a", isCorrect: true, fraction: .full), Choice(id: 2, text: "b", isCorrect: false, fraction: Fraction(0.37)),
            ])),
        ]
        let bank = Bank(subjects: [BankSubject(name: "S", topics: [BankTopic(name: "T", questions: questions)])])
        let output = MoodleXMLWriter().write(bank)
        #expect(output.skipped.map(\.question) == questions.map(\.text))
        #expect(output.skipped[3].message == "a gap fill whose number gaps have units cannot be written to Moodle XML: cloze has no units")
        #expect(output.skipped[4].message.hasPrefix("partial credit other than Moodle's grades"))
        #expect(!output.text.contains("<question type=\"multichoice\">"))
    }
}
