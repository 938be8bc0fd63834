import QuizCore
import QuizFormats
import Testing

@Suite struct CSVReaderProblemTests {
    private func located(_ problems: [FormatProblem]) -> [String] {
        problems.map { "\($0.line.map(String.init) ?? "-"):\($0.column.map(String.init) ?? "-")" }
    }

    @Test func answerThatIsNotAnOptionIsReportedAtItsLineAndColumn() {
        let problems = csvProblems("Q1?,a,b,,,a\nCapital of France?,Lyon,Nice,,,Paris\n")
        #expect(problems == [FormatProblem(line: 2, column: 6, message: "answer \"Paris\" is not one of the options")])
        #expect(problems.first?.description == "line 2, column 6: answer \"Paris\" is not one of the options")
    }

    @Test func wrongFieldCountNamesTheExpectedLayout() {
        let problems = csvProblems("Q1?,a,b,,,a\nQ2?,a,b,c,d,a,extra,more\nQ3?,a,b\n")
        #expect(problems.map(\.description) == [
            "line 2, column 7: expected 6 fields (question,option1,option2,option3,option4,answer), found 8",
            "line 3: expected 6 fields (question,option1,option2,option3,option4,answer), found 3",
        ])
    }

    @Test func wrongFieldCountUnderAHeaderRefersToTheHeader() {
        let problems = csvProblems("question,option1,option2,answer\nQ?,a,b,c,b\n")
        #expect(problems.map(\.description) == ["line 2, column 5: expected 4 fields as in the header, found 5"])
    }

    @Test func emptyQuestionAndMissingOptionsAreReported() {
        let problems = csvProblems(",a,,,,a\n")
        #expect(problems.map(\.description) == [
            "line 1, column 1: question is empty",
            "line 1, column 3: option2 is empty: a question needs at least two options",
        ])
    }

    @Test func emptyAnswerIsReported() {
        #expect(located(csvProblems("Q?,a,b,,,")) == ["1:6"])
    }

    @Test func duplicateOptionsAreReportedAtTheRepeat() {
        let problems = csvProblems("Q?,Paris,Lyon,PARIS ,,Lyon\n")
        #expect(problems.map(\.description) == ["line 1, column 4: option3 \"PARIS\" repeats option1"])
    }

    @Test func unknownDifficultyIsReported() {
        let problems = csvProblems("question,option1,option2,answer,difficulty\nQ?,a,b,a,extreme\n")
        #expect(problems.map(\.description) == ["line 2, column 5: unknown difficulty \"extreme\": use easy, medium or hard"])
    }

    @Test func lineNumbersCountPhysicalLinesInsideQuotedFields() {
        let csv = "\"Multi\nline\nquestion?\",a,b,,,a\nQ?,a,b,,,c\n"
        #expect(located(csvProblems(csv)) == ["4:6"])
    }

    @Test func lineNumbersCountCRLFAndBlankLinesOnce() {
        let csv = "Q1?,a,b,,,a\r\n\r\nQ2?,a,b,,,c\r\n"
        #expect(located(csvProblems(csv)) == ["3:6"])
    }

    @Test func invalidUTF8IsReportedWithItsLineAndField() {
        let bytes = Array("Q1?,a,b,,,a\nQ2?,a,".utf8) + [0xC3, 0x28] + Array(",,,a\n".utf8)
        let problems = csvProblems(bytes)
        #expect(problems.map(\.description) == ["line 2, column 3: is not valid UTF-8 (save the file as UTF-8)"])
    }

    @Test func textAfterAClosingQuoteIsReported() {
        let problems = csvProblems("Q1?,a,b,,,a\nQ2?,\"a\"b,c,,,c\n")
        #expect(located(problems) == ["2:2"])
        #expect(problems.first?.message.contains("closing quote") == true)
    }

    @Test func unclosedQuoteIsReportedAtTheRowWhereItOpened() {
        let problems = csvProblems("Q1?,a,b,,,a\nQ2?,\"a,b,,,a\nQ3?,a,b,,,a\n")
        #expect(located(problems) == ["2:2"])
        #expect(problems.first?.message == "quoted field is never closed: a \" is missing")
    }

    @Test func questionsBreakingValidationRulesAreReportedInCSVTerms() {
        let long = String(repeating: "x", count: 501)
        let problems = csvProblems("Q?,a,,,,a\nQ?,a,\(long),,,a\n\(String(repeating: "q", count: 2_001)),a,b,,,a\n")
        #expect(problems.map(\.description) == [
            "line 1, column 3: option2 is empty: a question needs at least two options",
            "line 2, column 3: option2 is longer than 500 characters",
            "line 3, column 1: question is longer than 2000 characters",
        ])
    }

    @Test func everyProblemIsReportedNotJustTheFirst() {
        let problems = csvProblems("Q1?,a,b,,,z\nQ2?,a,b,,,a\nQ3?,a,a,,,a\nQ4?,a,b,,,y\n")
        #expect(located(problems) == ["1:6", "3:3", "4:6"])
    }

    @Test func problemsAreCappedAtOneHundredWithACountOfTheRest() {
        let csv = (1...250).map { "Q\($0)?,a,b,,,c" }.joined(separator: "\n")
        do {
            _ = try CSVReader().read(Array(csv.utf8))
            Issue.record("expected a failure")
        } catch {
            #expect(error.problems.count == ImportError.maxProblems)
            #expect(error.omittedCount == 150)
            #expect(error.problems.last?.line == 100)
            #expect(error.description.hasSuffix("…and 150 more problems"))
        }
    }

    @Test func inputOverTheSizeLimitIsRejectedBeforeParsing() {
        let options = CSVReader.Options(maxBytes: 10)
        let problems = csvProblems("Q?,a,b,,,a,and much more", options: options)
        #expect(problems.count == 1)
        #expect(problems.first?.line == nil)
        #expect(problems.first?.message.contains("over the import limit") == true)
    }

    @Test func defaultSizeLimitIsTwentyMebibytes() {
        #expect(CSVReader.Options().maxBytes == 20 * 1024 * 1024)
    }

    @Test func emptyFilesAndHeaderOnlyFilesSayThereAreNoQuestions() {
        #expect(csvProblems("").map(\.message) == ["the file holds no questions"])
        #expect(csvProblems("\n\n,,,,,\n").map(\.message) == ["the file holds no questions"])
        #expect(csvProblems("question,option1,option2,answer\n").map(\.message) == ["the file has a header but no questions"])
    }

    @Test func headerWithUnknownOrRepeatedColumnsIsRejected() {
        let problems = csvProblems("question,option1,option2,answer,answer,explaination\nQ?,a,b,a,a,x\n")
        #expect(problems.map(\.description) == [
            "line 1, column 5: column \"answer\" repeats column 4",
            "line 1, column 6: unknown column \"explaination\"",
        ])
    }

    @Test func headerMissingRequiredColumnsSaysWhichOnes() {
        let problems = csvProblems("question,option1,answer\nQ?,a,a\n")
        #expect(problems.count == 1)
        #expect(problems.first?.line == 1)
        #expect(problems.first?.message.hasPrefix("header lacks the column(s) option2;") == true)
    }
}
