import Foundation
import QuizCore
import QuizFormats
import Testing

@Suite struct MoodleXMLReaderTests {
    private func choices(_ texts: [String], correct: Set<Int>) -> [Choice] {
        texts.enumerated().map { Choice(id: $0.offset + 1, text: $0.element, isCorrect: correct.contains($0.offset + 1)) }
    }

    @Test func singleAnswerMultichoiceBecomesSingleChoiceWithTheFullMarkAnswerCorrect() throws {
        let question = try onlyMoodleXMLQuestion(moodleQuiz("""
              <question type="multichoice">
                <name><text>Capital</text></name>
                <questiontext format="html"><text><![CDATA[<p>Capital of <b>France</b>?</p>]]></text></questiontext>
                <defaultgrade>2.0000000</defaultgrade>
                <single>true</single>
                <answer fraction="0"><text>Lyon</text></answer>
                <answer fraction="100" format="html"><text>&lt;p&gt;Paris&lt;/p&gt;</text></answer>
                <answer fraction="0"><text>Nice</text></answer>
              </question>

            """))
        #expect(question == Question(
            text: "Capital of France?", points: 2, body: .singleChoice(choices(["Lyon", "Paris", "Nice"], correct: [2]))))
    }

    @Test func multichoiceWithoutSingleIsSingleAnswerAsInMoodle() throws {
        let question = try onlyMoodleXMLQuestion(moodleQuiz("""
              <question type="multichoice">
                <questiontext format="plain_text"><text>Pick one</text></questiontext>
                <answer fraction="100"><text>A</text></answer>
                <answer fraction="0"><text>B</text></answer>
              </question>

            """))
        #expect(question.kind == .singleChoice)
    }

    @Test func multipleAnswerMultichoiceMarksEveryPositiveFractionCorrect() throws {
        let question = try onlyMoodleXMLQuestion(moodleQuiz("""
              <question type="multichoice">
                <questiontext format="plain_text"><text>Which are primes?</text></questiontext>
                <single>false</single>
                <answer fraction="50"><text>2</text></answer>
                <answer fraction="-100"><text>4</text></answer>
                <answer fraction="50.00000"><text>5</text></answer>
                <answer fraction="0"><text>9</text></answer>
                <answer fraction="0"><text></text></answer>
                <answer fraction="0" format="html"><text><![CDATA[<p><br></p>]]></text></answer>
              </question>

            """))
        // The blank answers (one left so by Moodle's HTML editor) are ignored, as Moodle ignores them.
        // A negative fraction takes credit away, so the fractions are kept as partial credit.
        #expect(question.body == .multipleChoice(zip(choices(["2", "4", "5", "9"], correct: [1, 3]), [0.5, -1, 0.5, 0]).map {
            Choice(id: $0.id, text: $0.text, isCorrect: $0.isCorrect, fraction: Fraction($1))
        }))
    }

    @Test func partialCreditInASingleAnswerQuestionIsKeptAsTheChoicesFraction() throws {
        let result = try readMoodleXML(moodleQuiz("""
              <question type="multichoice">
                <name><text>Partial</text></name>
                <questiontext format="plain_text"><text>Q?</text></questiontext>
                <answer fraction="100"><text>A</text></answer>
                <answer fraction="50"><text>B</text></answer>
              </question>

            """))
        #expect(moodleXMLQuestions(result.bank).first?.body == .singleChoice([
            Choice(id: 1, text: "A", isCorrect: true, fraction: .full), Choice(id: 2, text: "B", isCorrect: false, fraction: Fraction(0.5)),
        ]))
        #expect(result.warnings.isEmpty)
    }

    @Test func trueFalseTakesTheAnswerWithFullMarks() throws {
        let question = try onlyMoodleXMLQuestion(moodleQuiz("""
              <question type="truefalse">
                <questiontext format="moodle_auto_format"><text>The Sun is a planet.</text></questiontext>
                <answer fraction="0" format="moodle_auto_format"><text>true</text>
                  <feedback><text>No, a star.</text></feedback></answer>
                <answer fraction="100" format="moodle_auto_format"><text>false</text>
                  <feedback><text>Right: it is a star.</text></feedback></answer>
              </question>

            """))
        // With no general feedback, the correct answer's feedback explains.
        #expect(question == Question(text: "The Sun is a planet.", explanation: "Right: it is a star.", body: .trueFalse(false)))
    }

    @Test func shortAnswerAcceptsFullMarkAnswersAndKeepsPartialOnes() throws {
        let result = try readMoodleXML(moodleQuiz("""
              <question type="shortanswer">
                <name><text>Island</text></name>
                <questiontext format="html"><text>Where was it held?</text></questiontext>
                <generalfeedback format="html"><text><![CDATA[<p>It was <i>Crete</i>.</p>]]></text></generalfeedback>
                <usecase>0</usecase>
                <answer fraction="100"><text>Crete</text></answer>
                <answer fraction="100"><text>Kriti</text></answer>
                <answer fraction="50"><text>Greece</text></answer>
                <answer fraction="0"><text>Italy</text></answer>
              </question>

            """))
        #expect(moodleXMLQuestions(result.bank) == [
            Question(text: "Where was it held?", explanation: "It was Crete.",
                     body: .typedAnswer(["Crete", "Kriti"], partial: [Alternative("Greece", fraction: Fraction(0.5)!)])),
        ])
        #expect(result.warnings.isEmpty)
    }

    @Test func shortAnswerWarnsAboutCaseSensitivityAndWildcardsAndKeepsEscapedAsterisks() throws {
        let result = try readMoodleXML(moodleQuiz(#"""
              <question type="shortanswer">
                <questiontext format="plain_text"><text>Type it</text></questiontext>
                <usecase>1</usecase>
                <answer fraction="100"><text>a\*b</text></answer>
                <answer fraction="100"><text>Moo*le</text></answer>
              </question>

            """#))
        #expect(moodleXMLQuestions(result.bank).first?.body == .typedAnswer(["a*b", "Moo*le"]))
        #expect(result.warnings.map(\.message) == [
            "case-sensitive matching is not supported: Quizbox compares typed answers ignoring case",
            "answer \"Moo*le\" uses the * wildcard, which Quizbox does not support",
        ])
    }

    @Test func numericalTakesTheValueToleranceAndItsUnitsWithTheirMultipliers() throws {
        let result = try readMoodleXML(moodleQuiz("""
              <question type="numerical">
                <questiontext format="plain_text"><text>How far?</text></questiontext>
                <answer fraction="100"><text>42.5</text><tolerance>0.5</tolerance></answer>
                <answer fraction="0"><text>*</text></answer>
                <units>
                  <unit><multiplier>1000</multiplier><unit_name>m</unit_name></unit>
                  <unit><multiplier>1</multiplier><unit_name>km</unit_name></unit>
                </units>
              </question>

            """))
        let question = try #require(moodleXMLQuestions(result.bank).first)
        #expect(question.body == .numeric(value: 42.5, tolerance: 0.5, unit: "km", units: [NumericUnit(name: "m", multiplier: 1000)]))
        #expect(result.warnings.isEmpty)
        #expect(try question.isCorrect(.text("42300 m")))
        #expect(try question.isCorrect(.text("42,5 km")))
    }

    @Test func numericalWithoutToleranceOrUnitsIsExact() throws {
        let question = try onlyMoodleXMLQuestion(moodleQuiz("""
              <question type="numerical">
                <questiontext format="plain_text"><text>2 + 2?</text></questiontext>
                <answer fraction="100"><text>4</text></answer>
              </question>

            """))
        #expect(question.body == .numeric(value: 4, tolerance: 0, unit: nil))
    }

    @Test func categoriesSetSubjectAndTopicAndEarlierQuestionsUseTheDefaults() throws {
        let tf = moodleTrueFalse(text: "Q")
        func category(_ path: String) -> String {
            "  <question type=\"category\"><category><text>\(path)</text></category></question>\n"
        }
        let xml = moodleQuiz(
            tf, category("$course$/top/Science/Astronomy"), tf, tf,
            category("$system$/top/History"), tf,
            category("$module$/Maths/Algebra/Linear"), tf,
            category("$course$/top/Science/Astronomy"), tf,
            category("$course$/top"), tf,
            category("top/Rock//Pop/Bands"), tf)
        let defaults = ImportDefaults(subject: "General", topic: "Misc", quizTitle: "Moodle questions")
        let bank = try readMoodleXML(xml, defaults: defaults).bank
        let layout = bank.subjects.map { subject in
            "\(subject.name): " + subject.topics.map { "\($0.name) ×\($0.quizzes.first?.questions.count ?? 0)" }.joined(separator: ", ")
        }
        #expect(layout == [
            "General: Misc ×2",
            "Science: Astronomy ×3",
            "History: History ×1",
            "Maths: Linear ×1",
            "Rock/Pop: Bands ×1",
        ])
        #expect(bank.subjects.flatMap(\.topics).allSatisfy { $0.quizzes.map(\.title) == ["Moodle questions"] })
    }

    @Test func unsupportedTypesAreWarnedWithTheirLineAndNameAndTheRestIsImported() throws {
        func question(_ type: String, _ name: String) -> String {
            "  <question type=\"\(type)\">\n    <name><text>\(name)</text></name>\n  </question>\n"
        }
        let result = try readMoodleXML(moodleQuiz(
            question("essay", "E"), question("randomsamatch", "M"), question("gapselect", "D"),
            question("calculated", "C"), question("ddwtos", "W"), question("calculatedmulti", "Z"),
            "  <question>\n  </question>\n", moodleTrueFalse(text: "Kept")))
        #expect(result.warnings.map(\.description) == [
            "line 3: essay questions are not supported by Quizbox (question \"E\")",
            "line 6: randomsamatch questions are not supported by Quizbox (question \"M\")",
            "line 9: gapselect questions are not supported by Quizbox (question \"D\")",
            "line 12: calculated questions are not supported by Quizbox (question \"C\")",
            "line 15: ddwtos questions are not supported by Quizbox (question \"W\")",
            "line 18: calculatedmulti questions are not supported by Quizbox (question \"Z\")",
            "line 21: a question without a type attribute was not imported",
        ])
        #expect(moodleXMLQuestions(result.bank).map(\.text) == ["Kept"])
    }

    @Test func generalFeedbackIsTheExplanationAndWinsOverAnswerFeedback() throws {
        let question = try onlyMoodleXMLQuestion(moodleQuiz("""
              <question type="multichoice">
                <questiontext format="plain_text"><text>Q?</text></questiontext>
                <generalfeedback format="moodle_auto_format"><text>Line one
            Line two</text></generalfeedback>
                <answer fraction="100"><text>A</text><feedback><text>Answer feedback</text></feedback></answer>
                <answer fraction="0"><text>B</text></answer>
              </question>

            """))
        #expect(question.explanation == "Line one\nLine two")
    }

    @Test func defaultGradeIsRoundedAndKeptBetweenOneAndAHundred() throws {
        func question(grade: String?) -> String {
            let element = grade.map { "<defaultgrade>\($0)</defaultgrade>" } ?? ""
            return "<question type=\"truefalse\"><questiontext><text>Q</text></questiontext>\(element)"
                + "<answer fraction=\"100\"><text>true</text></answer></question>\n"
        }
        let grades = ["1.3000000", "2.5", "0", "-4", "250", nil, ""]
        let bank = try readMoodleXML(moodleQuiz(grades.map(question).joined())).bank
        #expect(moodleXMLQuestions(bank).map(\.points) == [1, 3, 1, 1, 100, 1, 1])
    }

    @Test func fractionsMayCarryTheRoundingMoodleWrites() throws {
        let question = try onlyMoodleXMLQuestion(moodleQuiz("""
              <question type="multichoice">
                <questiontext format="plain_text"><text>Q?</text></questiontext>
                <single>false</single>
                <answer fraction="33.333"><text>A</text></answer>
                <answer fraction="33.3333333"><text>B</text></answer>
                <answer fraction="33.33334"><text>C</text></answer>
                <answer fraction="-33.33333"><text>D</text></answer>
                <answer fraction="-14.2857"><text>E</text></answer>
              </question>

            """))
        // Each snapped to the grade it stands for, and kept: negative ones take credit away.
        let percents = [33.33333, 33.33333, 33.33333, -33.33333, -14.28571]
        #expect(question.body == .multipleChoice(zip(choices(["A", "B", "C", "D", "E"], correct: [1, 2, 3]), percents).map {
            Choice(id: $0.id, text: $0.text, isCorrect: $0.isCorrect, fraction: Fraction(percent: $1))
        }))
    }

    @Test func embeddedImagesAreWarnedAbout() throws {
        let result = try readMoodleXML(moodleQuiz("""
              <question type="truefalse">
                <name><text>Picture</text></name>
                <questiontext format="html">
                  <text><![CDATA[<p>Is this a cat? <img src="@@PLUGINFILE@@/cat.png"></p>]]></text>
                  <file name="cat.png" path="/" encoding="base64">iVBORw0KGgo=</file>
                </questiontext>
                <answer fraction="100"><text>true</text></answer>
              </question>

            """))
        #expect(moodleXMLQuestions(result.bank).map(\.text) == ["Is this a cat?"])
        // Eight bytes of PNG signature: no size to read, so no picture.
        #expect(result.warnings.map(\.description) == [
            "line 3: the picture cat.png has no readable width and height, or a side over 20000 pixels: it was not imported (question \"Picture\")",
            "line 3: images were not imported (1 embedded file) (question \"Picture\")",
        ])
    }

    @Test func filesOverTheXMLParsersTenMegabyteLimitAreReadCompletely() throws {
        // Foundation's XMLParser (libxml2 without XML_PARSE_HUGE) reports an error at the end of any
        // input over 10,000,000 bytes; the reader must still take every question, and still see
        // a file that really is cut short.
        let image = String(repeating: "QUJD", count: 2_600_000)
        let xml = moodleQuiz("""
              <question type="truefalse">
                <name><text>Big</text></name>
                <questiontext><text>Is it big?</text><file name="big.png" encoding="base64">\(image)</file></questiontext>
                <answer fraction="100"><text>true</text></answer>
              </question>

            """, moodleTrueFalse(text: "After"))
        #expect(xml.utf8.count > 10_000_000)
        let result = try readMoodleXML(xml)
        #expect(moodleXMLQuestions(result.bank).map(\.text) == ["Is it big?", "After"])
        #expect(result.warnings.map(\.message) == ["images were not imported (1 embedded file)"])

        let cut = moodleXMLProblems(Data(xml.utf8).dropLast(20))
        #expect(cut.first?.message.hasPrefix("the file ends before <") == true, "\(cut)")
    }

    @Test func questionsKeepFileOrderWithinTheirTopic() throws {
        let xml = moodleQuiz(moodleTrueFalse(text: "First"), moodleTrueFalse(text: "Second"), moodleTrueFalse(text: "Third"))
        #expect(moodleXMLQuestions(try readMoodleXML(xml).bank).map(\.text) == ["First", "Second", "Third"])
    }
}
