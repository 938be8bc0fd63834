import QuizCore
@testable import QuizFormats
import Testing

/// Spreadsheets often name the right option by its column (1–4) or letter (A–D).
@Suite struct CSVAnswerColumnTests {
    func correctText(_ bank: Bank) -> [String] {
        allQuestions(bank).compactMap { $0.body.choices.first(where: \.isCorrect)?.text }
    }

    @Test func anIndexNamesTheOptionsColumn() throws {
        let bank = try readCSV("Largest ocean?,Atlantic,Pacific,Indian,,2\nRed planet?,Mars,Venus,,,1\n",
                               options: .init(answerColumn: .index))
        #expect(correctText(bank) == ["Pacific", "Mars"])
    }

    @Test func aLetterNamesTheOptionsColumnInEitherCase() throws {
        let bank = try readCSV("Largest ocean?,Atlantic,Pacific,Indian,,c\nRed planet?,Mars,Venus,,,A\n",
                               options: .init(answerColumn: .letter))
        #expect(correctText(bank) == ["Indian", "Mars"])
    }

    @Test func aValueThatCouldBeReadTwoWaysIsRefused() {
        let problems = csvProblems("Which is even?,2,3,,,1\nSum of 1 and 1?,2,3,,,2\n", options: .init(answerColumn: .index))
        #expect(problems.count == 1)
        #expect(problems.first?.line == 2)
        #expect(problems.first?.message.contains("could mean option2 or option1") == true)
    }

    @Test func positionsOutsideTheOptionsOrOnEmptyOnesAreRefused() {
        let index = csvProblems("Q?,A,B,,,5\nR?,A,B,,,3\nS?,A,B,,,B\n", options: .init(answerColumn: .index))
        #expect(index.map(\.line) == [1, 2, 3])
        #expect(index[0].message == "answer \"5\" is not 1, 2, 3 or 4")
        #expect(index[1].message == "answer \"3\" points at option3, which is empty")
        let letter = csvProblems("Q?,A,B,,,E\nR?,A,B,,,AB\n", options: .init(answerColumn: .letter))
        #expect(letter.map(\.message) == ["answer \"E\" is not A, B, C or D", "answer \"AB\" is not A, B, C or D"])
    }
}
