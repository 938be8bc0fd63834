import Foundation
import QuizCore

/// Writes a bank as a workbook: in Quizbox's sheet columns (the CSV's, one row per question), or
/// as Kahoot's quiz template, so a quiz made in Quizbox can be imported into Kahoot. What a
/// layout cannot hold is returned as skipped, as the other writers do.
public struct SpreadsheetBankWriter: Sendable {
    /// Kahoot's own limits, which its importer holds a sheet to.
    public static let kahootQuestionLimit = 120
    public static let kahootAnswerLimit = 75
    /// Kahoot's default time per question, for questions without their own.
    public static let kahootSeconds = 20
    /// The only times Kahoot's importer takes.
    public static let kahootTimes = [5, 10, 20, 30, 60, 90, 120, 240]

    /// The question's own time as the nearest time Kahoot takes (the longer of two as near).
    static func kahootSeconds(for question: Question) -> Int {
        guard let seconds = question.timeLimitSeconds else { return kahootSeconds }
        return kahootTimes.min { abs($0 - seconds) < abs($1 - seconds) || (abs($0 - seconds) == abs($1 - seconds) && $0 > $1) }
            ?? kahootSeconds
    }

    /// The header Kahoot's template has in row 8, columns B to H (read back by `KahootColumns`).
    public static let kahootHeader = [
        "Question - max 120 characters", "Answer 1 - max 75 characters", "Answer 2 - max 75 characters",
        "Answer 3 - max 75 characters", "Answer 4 - max 75 characters",
        "Time limit (sec) – 5, 10, 20, 30, 60, 90, 120, or 240 secs", "Correct answer(s) - choose at least one",
    ]

    public init() {}

    /// The CSV's columns, with a header, one sheet; single-choice questions with at most four options.
    public func quizbox(_ bank: Bank) -> (data: Data, skipped: [FormatProblem]) {
        var rows: [[XLSXWriter.Cell]] = [CSVWriter.header.split(separator: ",").map { .text(String($0)) }]
        var skipped: [FormatProblem] = []
        let csv = CSVWriter()
        for (subject, topic, question) in Self.questions(of: bank) {
            if let reason = csv.reasonToSkip(question) {
                skipped.append(FormatProblem(question: question.text, message: reason.replacing("CSV holds", with: "the sheet holds")))
                continue
            }
            let choices = question.body.choices
            var row: [XLSXWriter.Cell] = [.text(question.text)]
            row += choices.map { .text($0.text) } + Array(repeating: .empty, count: 4 - choices.count)
            row += [.text(choices.first(where: \.isCorrect)?.text ?? ""), .text(subject), .text(topic),
                    .text(question.difficulty.rawValue), question.explanation.map { .text($0) } ?? .empty]
            rows.append(row)
        }
        let sheet = XLSXWriter.Sheet(name: "Questions", widths: [50, 24, 24, 24, 24, 24, 16, 16, 10, 40], rows: rows)
        return (XLSXWriter().write([sheet]), skipped)
    }

    /// Kahoot's quiz template: its instructions, the header in row 8, one question a row from row 9
    /// (numbered in column A); single choice, multiple choice and true/false with 2 to 4 answers
    /// within Kahoot's lengths. The time limit is the question's own, as the nearest time Kahoot takes,
    /// or Kahoot's default, 20 seconds.
    public func kahoot(_ bank: Bank) -> (data: Data, skipped: [FormatProblem]) {
        var rows: [[XLSXWriter.Cell]] = [
            [],
            [.empty, .text("Quiz template")],
            [.empty, .text("Add questions, at least two answer alternatives, time limit and choose correct answers (at least one). Have fun creating your awesome quiz!")],
            [.empty, .text("Remember: questions have a limit of 120 characters and answers can have 75 characters max. Text will turn red in Excel or Google Docs if you exceed this limit. If several answers are correct, separate them with a comma.")],
            [.empty, .text("Exported from Quizbox.")],
            [],
            [],
            [.empty] + Self.kahootHeader.map { .text($0) },
        ]
        var skipped: [FormatProblem] = []
        for (_, _, question) in Self.questions(of: bank) {
            let answers: [Choice]
            switch question.body {
            case .singleChoice(let choices), .multipleChoice(let choices): answers = choices
            case .trueFalse(let truth):
                answers = [Choice(id: 1, text: "True", isCorrect: truth), Choice(id: 2, text: "False", isCorrect: !truth)]
            default:
                skipped.append(FormatProblem(question: question.text,
                                             message: "a \(question.kind.rawValue) question: Kahoot's template holds choice and true/false questions only"))
                continue
            }
            if answers.count > 4 {
                skipped.append(FormatProblem(question: question.text, message: "has \(answers.count) answers: Kahoot's template holds at most 4"))
                continue
            }
            if question.text.count > Self.kahootQuestionLimit {
                skipped.append(FormatProblem(question: question.text,
                                             message: "the question is longer than Kahoot's \(Self.kahootQuestionLimit) characters"))
                continue
            }
            if let long = answers.firstIndex(where: { $0.text.count > Self.kahootAnswerLimit }) {
                skipped.append(FormatProblem(question: question.text,
                                             message: "answer \(long + 1) is longer than Kahoot's \(Self.kahootAnswerLimit) characters"))
                continue
            }
            let correct = answers.indices.filter { answers[$0].isCorrect }.map { String($0 + 1) }.joined(separator: ",")
            var row: [XLSXWriter.Cell] = [.number(Double(rows.count - 7)), .text(question.text)]
            row += answers.map { .text($0.text) } + Array(repeating: .empty, count: 4 - answers.count)
            row += [.number(Double(Self.kahootSeconds(for: question))), .text(correct)]
            rows.append(row)
        }
        let sheet = XLSXWriter.Sheet(name: "Sheet1", widths: [12.5, 49, 32, 32, 32, 32, 26, 33], rows: rows, headerRow: 8)
        return (XLSXWriter().write([sheet]), skipped)
    }

    /// Each topic's quizzes in order, then its questions outside any quiz.
    static func questions(of bank: Bank) -> [(subject: String, topic: String, question: Question)] {
        bank.subjects.flatMap { subject in
            subject.topics.flatMap { topic in
                (topic.quizzes.flatMap(\.questions) + topic.questions).map { (subject.name, topic.name, $0) }
            }
        }
    }
}
