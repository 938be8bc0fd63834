import Foundation
import QuizCore
import QuizFormats
import Testing

/// Real Moodle exports (see /work/shared/testdata/formats/SOURCES.md for what each exercises).
@Suite(SharedTestData.required) struct MoodleXMLRealFileTests {
    private func read(_ name: String) throws -> ReadResult {
        try MoodleXMLReader().read(try MoodleXMLTestFiles.data(name))
    }

    @Test func multichoiceExportBecomesOneSingleChoiceQuestionWithItsHTMLFlattened() throws {
        let result = try read("qas-multichoice.xml")
        #expect(result.bank.subjects.map(\.name) == ["Imported"])
        #expect(result.bank.subjects.first?.topics.map(\.name) == ["Imported"])
        let questions = moodleXMLQuestions(result.bank)
        #expect(questions.count == 1)
        let question = try #require(questions.first)
        #expect(question.text == #"""
            a link here and an image and an equation \( \int_{2\pi} x^2 \mathrm{d} x \)
            centered text
            flush left text
            flush right text
            In moodle editor, there is also exponent and indice and that
            and svg file
            """#)
        #expect(question.body == .singleChoice([
            Choice(id: 1, text: "This is the good underlined answer.", isCorrect: true),
            Choice(id: 2, text: "This is one italic wrong answer.", isCorrect: false),
            Choice(id: 3, text: "This a wrong bold answer.", isCorrect: false),
            Choice(id: 4, text: "This a wrong strong answer.", isCorrect: false),
            Choice(id: 5, text: "This a wrong emphasis answer.", isCorrect: false),
        ]))
        #expect(question.points == 1)  // defaultgrade 1.3
        #expect(question.explanation == nil)  // empty general feedback and answer feedback
        // The PNG is the picture (its alt="" gets the fallback); the SVG is not imported.
        let picture = try #require(question.picture)
        #expect(picture.type == .png && picture.width == 43 && picture.height == 51)
        #expect(picture.alt == QuestionPicture.fallbackAlt)
        #expect(result.warnings.map(\.description) == [
            "line 3: images other than the question's picture were not imported (1 embedded file) (question \"html layout\")",
        ])
    }

    @Test func matchingExportKeepsItsPairsAndTheDistractorAsAnExtraAnswer() throws {
        let result = try read("qas-matching.xml")
        let question = try #require(moodleXMLQuestions(result.bank).first)
        #expect(question.text == "Match the cool Moodle features with the version in which they first appeared:")
        #expect(question.body == .matching(Matching(pairs: [
            Matching.Pair(prompt: "Drag and drop files", answer: "Moodle 2.3"),
            Matching.Pair(prompt: "Groupings", answer: "Moodle 1.9"),
            Matching.Pair(prompt: "Repositories", answer: "Moodle 2.0"),
        ], extras: ["Moodle 2.5"])))
        #expect(result.warnings.isEmpty)
    }

    @Test func numericalExportKeepsValueToleranceAndEveryUnit() throws {
        let result = try read("qas-numerical.xml")
        let question = try #require(moodleXMLQuestions(result.bank).first)
        #expect(moodleXMLQuestions(result.bank).count == 1)
        // The file's own multipliers, as written (0.5 for both mm and m).
        #expect(question.body == .numeric(value: 150, tolerance: 0, unit: "cm",
                                          units: [NumericUnit(name: "mm", multiplier: 0.5), NumericUnit(name: "m", multiplier: 0.5)]))
        #expect(question.text == #"""
            Find \(x\) such \(2x-300=0\) ?
            Here \(x\) is an integer, test for exact match, only.
            """#)
        #expect(question.points == 1)
        #expect(result.warnings.isEmpty)
    }

    @Test func shortAnswerExportAcceptsTheFullMarkAnswerAndExplainsWithItsFeedback() throws {
        let result = try read("qas-shortanswer.xml")
        let question = try #require(moodleXMLQuestions(result.bank).first)
        #expect(question.text == "Type in the name of the ISLAND where the first ever Moodle Research conference was held.")
        // "Greece" has fraction 0: a wrong answer, which needs no equivalent and no warning.
        #expect(question.body == .typedAnswer(["Crete"]))
        #expect(question.explanation == "Correct. Well done! More information on Moodle Research conferences on the Moodle Research site.")
        #expect(question.points == 1)  // defaultgrade 1.12
        #expect(result.warnings.isEmpty)
        #expect(try question.isCorrect(.text("crete")))
    }

    @Test func realExportsSurviveAWriteAndReadBack() throws {
        for name in MoodleXMLTestFiles.names {
            let first = try read(name)
            let output = MoodleXMLWriter().write(first.bank)
            #expect(output.skipped.isEmpty)
            #expect(try readMoodleXML(output.text).bank == first.bank, "\(name)")
        }
    }
}
