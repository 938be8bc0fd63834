import QuizFormats
import Testing

@Suite struct FormatProblemTests {
    @Test func descriptionPutsTheLocationBeforeTheMessage() {
        #expect(FormatProblem(line: 4, column: 12, message: "answer \"Paris\" is not one of the options").description
            == "line 4, column 12: answer \"Paris\" is not one of the options")
        #expect(FormatProblem(line: 4, message: "m").description == "line 4: m")
        #expect(FormatProblem(message: "the file holds no questions").description == "the file holds no questions")
        #expect(FormatProblem(path: "subjects[0].name", message: "is empty").description == "subjects[0].name: is empty")
    }

    @Test func longQuestionsAreShortenedToOneLineInTheDescription() {
        let question = "First line\n" + String(repeating: "x", count: 100)
        let description = FormatProblem(path: "p", question: question, message: "m").description
        #expect(description.hasPrefix("p: m (question \"First line xxx"))
        #expect(description.hasSuffix("…\")"))
        #expect(description.count == "p: m (question \"\")".count + 60)
    }
}
