import Foundation
import QuizCore
import QuizFormats
import Testing

@Suite struct MoodleXMLWriterTests {
    private func choices(_ texts: [String], correct: Set<Int>) -> [Choice] {
        texts.enumerated().map { Choice(id: $0.offset + 1, text: $0.element, isCorrect: correct.contains($0.offset + 1)) }
    }

    private func bank(_ questions: [Question], subject: String = "S", topic: String = "T") -> Bank {
        Bank(subjects: [BankSubject(name: subject, topics: [BankTopic(name: topic, quizzes: [BankQuiz(title: "Q", questions: questions)])])])
    }

    @Test func everyWritableKindSurvivesARoundTripWithItsSubjectAndTopic() throws {
        let astronomy = [
            Question(text: "Closest star?", explanation: "The Sun, at 1 AU.", points: 3,
                     body: .singleChoice(choices(["Sirius", "The Sun", "Vega"], correct: [2]))),
            Question(text: "Which are planets?\nPick all.", body: .multipleChoice(choices(["Mars", "Moon", "Venus", "Ceres"], correct: [1, 3]))),
            Question(text: "Pluto is a planet.", explanation: "Not since 2006.", body: .trueFalse(false)),
        ]
        let maths = [
            Question(text: "Name the operator: 2 * 3 & 4 < 5 ]]> done", points: 100, body: .typedAnswer(["times", "2*3", "multiply"])),
            Question(text: "π to two decimals?", body: .numeric(value: 3.14, tolerance: 0.005, unit: nil)),
            Question(text: "Distance to the Moon?", body: .numeric(value: 384_400, tolerance: 1e-3, unit: "km")),
            Question(text: "Freezing point?", body: .numeric(value: -0.5e-7, tolerance: 0, unit: "°C")),
        ]
        let original = Bank(subjects: [
            BankSubject(name: "Science", topics: [
                BankTopic(name: "Astronomy", quizzes: [BankQuiz(title: "Imported questions", questions: astronomy)]),
            ]),
            BankSubject(name: "Maths & Logic", topics: [
                BankTopic(name: "Arithmetic/Algebra", quizzes: [BankQuiz(title: "Imported questions", questions: maths)]),
                BankTopic(name: "Arithmetic/Algebra 2", quizzes: [BankQuiz(title: "Imported questions", questions: [astronomy[2]])]),
            ]),
        ])
        let output = MoodleXMLWriter().write(original)
        #expect(output.skipped.isEmpty)
        let result = try readMoodleXML(output.text)
        #expect(result.bank == original)
        #expect(result.warnings.isEmpty)
    }

    @Test func eachTopicStartsWithItsCategory() {
        let tf = Question(text: "Q", body: .trueFalse(true))
        let original = Bank(subjects: [
            BankSubject(name: "Science", topics: [BankTopic(name: "Astronomy", questions: [tf]), BankTopic(name: "Empty")]),
        ])
        let text = MoodleXMLWriter().write(original).text
        #expect(text.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<quiz>\n"))
        #expect(text.components(separatedBy: "<question type=\"category\">").count == 2)  // none for the empty topic
        #expect(text.contains("<text>$course$/top/Science/Astronomy</text>"))
        #expect(text.hasSuffix("</quiz>\n"))
    }

    @Test func multipleAnswerFractionsAreEqualSharesOfAHundredThatMoodleAllows() throws {
        for correct in 1...10 {
            let texts = (1...10).map { "Option \($0)" }
            let question = Question(text: "Pick \(correct)", body: .multipleChoice(choices(texts, correct: Set(1...correct))))
            let text = MoodleXMLWriter().write(bank([question])).text
            let share = ["100", "50", "33.33333", "25", "20", "16.66667", "14.28571", "12.5", "11.11111", "10"][correct - 1]
            #expect(text.components(separatedBy: "fraction=\"\(share)\"").count - 1 == correct)
            #expect(text.components(separatedBy: "fraction=\"0\"").count - 1 == 10 - correct)
            #expect(moodleXMLQuestions(try readMoodleXML(text).bank) == [question])
        }
    }

    @Test func questionFieldsAreWrittenAsMoodleExpects() {
        let question = Question(text: String(repeating: "Long question text ", count: 5), explanation: "Because.", points: 4,
                                body: .singleChoice(choices(["A", "B"], correct: [2])))
        let text = MoodleXMLWriter().write(bank([question])).text
        #expect(text.contains("<question type=\"multichoice\">"))
        #expect(text.contains("<name><text>Long question text Long question text Long question text Lon</text></name>"))
        #expect(text.contains("<questiontext format=\"plain_text\"><text><![CDATA[Long question text "))
        #expect(text.contains("<generalfeedback format=\"plain_text\"><text><![CDATA[Because.]]></text></generalfeedback>"))
        #expect(text.contains("<defaultgrade>4</defaultgrade>"))
        #expect(text.contains("<single>true</single>"))
        #expect(text.contains("<answer fraction=\"100\" format=\"plain_text\"><text><![CDATA[B]]></text></answer>"))
    }

    @Test func cdataEndInsideTextIsSplitSoTheFileStaysWellFormed() throws {
        let question = Question(text: "a]]>b]]]]>c", body: .trueFalse(true))
        let text = MoodleXMLWriter().write(bank([question])).text
        #expect(text.contains("<![CDATA[a]]]]><![CDATA[>b]]]]]]><![CDATA[>c]]>"))
        #expect(moodleXMLQuestions(try readMoodleXML(text).bank).map(\.text) == ["a]]>b]]]]>c"])
    }

    @Test func controlCharactersXMLCannotHoldAreLeftOut() throws {
        let question = Question(text: "Bell\u{7} and\tTab", body: .trueFalse(true))
        let text = MoodleXMLWriter().write(bank([question], subject: "Sub\u{1}ject")).text
        let result = try readMoodleXML(text)
        #expect(moodleXMLQuestions(result.bank).map(\.text) == ["Bell and\tTab"])
        #expect(result.bank.subjects.map(\.name) == ["Subject"])
    }

    @Test func nameAllQuestionsAreSkippedWithTheirPath() {
        let nameAll = Question(text: "Name the planets", body: .nameAll(items: [NameAllItem(answer: "Mars")], timeLimitSeconds: 60, typoTolerance: true))
        let kept = Question(text: "Kept", body: .trueFalse(true))
        let original = Bank(subjects: [BankSubject(name: "S", topics: [
            BankTopic(name: "T", quizzes: [BankQuiz(title: "Q", questions: [kept, nameAll])], questions: [nameAll]),
        ])])
        let output = MoodleXMLWriter().write(original)
        #expect(output.skipped == [
            FormatProblem(path: "subjects[0].topics[0].quizzes[0].questions[1]", question: "Name the planets",
                          message: "name-them-all questions have no Moodle XML equivalent"),
            FormatProblem(path: "subjects[0].topics[0].questions[0]", question: "Name the planets",
                          message: "name-them-all questions have no Moodle XML equivalent"),
        ])
        #expect(output.text.components(separatedBy: "<question type=").count - 1 == 2)  // category + kept
    }

    @Test func pointsOfZeroComeBackAsOneBecauseMoodleGradesAreAtLeastOneHere() throws {
        let question = Question(text: "Free", points: 0, body: .trueFalse(true))
        let text = MoodleXMLWriter().write(bank([question])).text
        #expect(text.contains("<defaultgrade>0</defaultgrade>"))
        #expect(moodleXMLQuestions(try readMoodleXML(text).bank).map(\.points) == [1])
    }
}
