import QuizCore

/// What a reader produced: the questions it could take, and what it had to leave out
/// (kinds Quizbox has no equivalent for, such as essays), each with where it was.
public struct ReadResult: Sendable, Hashable {
    public var bank: Bank
    public var warnings: [FormatProblem]
    /// With `ImportDefaults.skipInvalid`: the problems of the questions left out (at most
    /// `ImportError.maxProblems`), and how many more there were.
    public var skipped: [FormatProblem]
    public var skippedOmittedCount: Int

    public init(bank: Bank, warnings: [FormatProblem] = [], skipped: [FormatProblem] = [], skippedOmittedCount: Int = 0) {
        self.bank = bank
        self.warnings = warnings
        self.skipped = skipped
        self.skippedOmittedCount = skippedOmittedCount
    }
}

/// Where questions without a category of their own go, and what the quiz holding them is called.
public struct ImportDefaults: Sendable, Hashable {
    public var subject: String
    public var topic: String
    public var quizTitle: String
    public var maxBytes: Int
    /// CSV only: how the answer column names the correct option.
    public var csvAnswerColumn: CSVReader.AnswerColumn
    /// Import the valid questions and list the others, instead of all or nothing. Problems with
    /// the file as a whole still fail it, and so does a file left with no valid question.
    public var skipInvalid: Bool

    public init(subject: String = "Imported", topic: String = "Imported", quizTitle: String = "Imported questions",
                maxBytes: Int = 20 * 1024 * 1024, csvAnswerColumn: CSVReader.AnswerColumn = .text, skipInvalid: Bool = false) {
        self.skipInvalid = skipInvalid
        self.subject = subject
        self.topic = topic
        self.quizTitle = quizTitle
        self.maxBytes = maxBytes
        self.csvAnswerColumn = csvAnswerColumn
    }
}
