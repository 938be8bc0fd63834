import QuizCore
import QuizFormats
import Testing

/// Reads CSV text, failing the test if the reader rejects it.
func readCSV(_ text: String, options: CSVReader.Options = .init()) throws -> Bank {
    try CSVReader(options: options).read(Array(text.utf8))
}

/// The problems the reader reports for bytes it must reject; records an issue if it accepts them.
func csvProblems(_ bytes: [UInt8], options: CSVReader.Options = .init(), sourceLocation: SourceLocation = #_sourceLocation) -> [FormatProblem] {
    do {
        let bank = try CSVReader(options: options).read(bytes)
        Issue.record("expected the CSV to be rejected, but it read \(bank.questionCount) questions", sourceLocation: sourceLocation)
        return []
    } catch {
        return error.problems
    }
}

func csvProblems(_ text: String, options: CSVReader.Options = .init(), sourceLocation: SourceLocation = #_sourceLocation) -> [FormatProblem] {
    csvProblems(Array(text.utf8), options: options, sourceLocation: sourceLocation)
}

/// Every question of a bank, in order.
func allQuestions(_ bank: Bank) -> [Question] {
    bank.subjects.flatMap(\.topics).flatMap { $0.quizzes.flatMap(\.questions) + $0.questions }
}

func singleChoice(_ text: String, _ options: [String], correct: Int, difficulty: Difficulty = .medium, explanation: String? = nil) -> Question {
    Question(
        text: text, explanation: explanation, difficulty: difficulty,
        body: .singleChoice(options.enumerated().map { Choice(id: $0.offset + 1, text: $0.element, isCorrect: $0.offset + 1 == correct) }))
}
