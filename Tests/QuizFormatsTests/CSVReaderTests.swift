import QuizCore
import QuizFormats
import Foundation
import Testing

@Suite struct CSVReaderTests {
    @Test func eachRowBecomesASingleChoiceQuestionWithTheAnswerMarkedCorrect() throws {
        let bank = try readCSV("""
            Capital of France?,Lyon,Paris,Nice,Lille,Paris
            2 + 2?,3,4,,,4
            """)
        #expect(allQuestions(bank) == [
            singleChoice("Capital of France?", ["Lyon", "Paris", "Nice", "Lille"], correct: 2),
            singleChoice("2 + 2?", ["3", "4"], correct: 2),
        ])
    }

    @Test func rowsWithoutSubjectOrTopicLandInOneQuizUnderTheDefaults() throws {
        let options = CSVReader.Options(defaultSubject: "Misc", defaultTopic: "General", quizTitle: "Upload")
        let bank = try readCSV("Q1?,a,b,,,a\nQ2?,c,d,,,d\n", options: options)
        #expect(bank.subjects.map(\.name) == ["Misc"])
        #expect(bank.subjects[0].topics.map(\.name) == ["General"])
        #expect(bank.subjects[0].topics[0].quizzes.map(\.title) == ["Upload"])
        #expect(bank.subjects[0].topics[0].quizzes[0].questions.map(\.text) == ["Q1?", "Q2?"])
        #expect(bank.subjects[0].topics[0].questions.isEmpty)
    }

    @Test func defaultOptionsAreImported() throws {
        let bank = try readCSV("Q?,a,b,,,a")
        #expect(bank.subjects[0].name == "Imported")
        #expect(bank.subjects[0].topics[0].name == "Imported")
        #expect(bank.subjects[0].topics[0].quizzes[0].title == "Imported questions")
    }

    @Test func anEmptyThirdOptionWithAFourthGivesThreeChoicesNumberedInOrder() throws {
        let bank = try readCSV("Q?,a,b,,d,d")
        #expect(allQuestions(bank) == [singleChoice("Q?", ["a", "b", "d"], correct: 3)])
    }

    @Test func headerRowIsDetectedAndNotImported() throws {
        let bank = try readCSV("Question,Option1,Option2,Option3,Option4,Answer\nQ?,a,b,c,d,c\n")
        #expect(allQuestions(bank) == [singleChoice("Q?", ["a", "b", "c", "d"], correct: 3)])
    }

    @Test func headerMayReorderColumnsAndAddSubjectTopicDifficultyExplanation() throws {
        let bank = try readCSV("""
            answer,difficulty,question,option2,option1,subject,topic,explanation,option3,option4
            b,HARD,Q1?,b,a,History,Rome,Because.,,
            a,,Q2?,b,a,History,Greece,,,
            x,easy,Q3?,x,y,Science,Physics,,,
            y,,Q4?,x,y,History,Rome,,,
            """)
        #expect(bank.subjects.map(\.name) == ["History", "Science"])
        #expect(bank.subjects[0].topics.map(\.name) == ["Rome", "Greece"])
        #expect(bank.subjects[0].topics[0].quizzes[0].questions == [
            singleChoice("Q1?", ["a", "b"], correct: 2, difficulty: .hard, explanation: "Because."),
            singleChoice("Q4?", ["y", "x"], correct: 1),
        ])
        #expect(allQuestions(bank).map(\.difficulty) == [.hard, .medium, .medium, .easy])
    }

    @Test func headerNeedNotListOptionalOptionColumns() throws {
        let bank = try readCSV("question,option1,option2,answer\nQ?,a,b,b\n")
        #expect(allQuestions(bank) == [singleChoice("Q?", ["a", "b"], correct: 2)])
    }

    @Test func quotedFieldsMayHoldCommasQuotesAndNewlines() throws {
        let bank = try readCSV("""
            "Who said ""veni, vidi, vici""?","Julius
            Caesar",Cicero,,,"Julius
            Caesar"
            """)
        #expect(allQuestions(bank) == [
            singleChoice("Who said \"veni, vidi, vici\"?", ["Julius\nCaesar", "Cicero"], correct: 1),
        ])
    }

    @Test func byteOrderMarkAndCRLFLineEndingsAreAccepted() throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("question,option1,option2,option3,option4,answer\r\nQ?,a,b,,,b\r\n".utf8)
        let bank = try CSVReader().read(bytes)
        #expect(allQuestions(bank) == [singleChoice("Q?", ["a", "b"], correct: 2)])
    }

    @Test func oldMacLineEndingsOfABareCRAreAccepted() throws {
        let bank = try readCSV("Q1?,a,b,,,a\rQ2?,\"x\ry\",z,,,z\r")
        #expect(allQuestions(bank) == [
            singleChoice("Q1?", ["a", "b"], correct: 1), singleChoice("Q2?", ["x\ry", "z"], correct: 2),
        ])
    }

    @Test func aTrailingCommaAtTheEndOfTheFileIsAnEmptyLastField() throws {
        let bank = try readCSV("question,option1,option2,answer,explanation\nQ?,a,b,b,")
        #expect(allQuestions(bank) == [singleChoice("Q?", ["a", "b"], correct: 2)])
    }

    @Test func dataInputReadsLikeBytes() throws {
        let bank = try CSVReader().read(Data("Q?,a,b,,,b".utf8))
        #expect(allQuestions(bank).count == 1)
    }

    @Test func spacesAroundFieldsAreTrimmed() throws {
        let bank = try readCSV("  Q? , a ,  \"b\" ,,, b ")
        #expect(allQuestions(bank) == [singleChoice("Q?", ["a", "b"], correct: 2)])
    }

    @Test func answerMatchesAnOptionIgnoringCaseAndAccents() throws {
        let bank = try readCSV("Where?,Zürich,Bern,,,zurich")
        #expect(allQuestions(bank) == [singleChoice("Where?", ["Zürich", "Bern"], correct: 1)])
    }

    @Test func anAnswerMatchingSeveralOptionsLooselyMustBeExact() {
        #expect(throws: ImportError.self) { try readCSV("Which?,C#,C++,Java,,C") }
        #expect(throws: Never.self) { try readCSV("Which?,C#,C++,Java,,c++") }
    }

    @Test func blankLinesAndEmptyRowsAreSkipped() throws {
        let bank = try readCSV("\nQ1?,a,b,,,a\n\n,,,,,\n\r\nQ2?,a,b,,,b\n\n")
        #expect(allQuestions(bank).map(\.text) == ["Q1?", "Q2?"])
    }

    @Test func nonASCIITextSurvivesUnchanged() throws {
        let bank = try readCSV("Столица Японии?,東京,大阪,,,東京")
        #expect(allQuestions(bank) == [singleChoice("Столица Японии?", ["東京", "大阪"], correct: 1)])
    }

    @Test func readsTenThousandRowsInOrder() throws {
        let rows = (0..<10_000).map { "Question \($0)?,yes \($0),no \($0),,,no \($0)" }
        let bank = try readCSV(rows.joined(separator: "\n"))
        let questions = allQuestions(bank)
        #expect(questions.count == 10_000)
        #expect(questions.last?.text == "Question 9999?")
    }
}
