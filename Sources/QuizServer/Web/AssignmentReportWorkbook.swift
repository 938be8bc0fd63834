import Foundation
import QuizCore
import QuizFormats
import QuizText
import QuizUseCases

/// The report as an Excel workbook: a sheet of players (grade and credit per question in percent,
/// as numbers) and a sheet of questions (how many answered and got it right, the common wrong
/// answers). Texts are written as text, so a nickname like "=cmd" stays harmless.
struct AssignmentReportWorkbook {
    let report: Assignments.Report

    func data(t: Texts) -> Data {
        let numbers = report.questions.indices.map { t("Question {number}", ["number": t.number($0 + 1)]) }
        var players: [[XLSXWriter.Cell]] = [([t("Nickname"), t("Signed in"), t("State"), t("Attempts"), t("Grade %"), t("Seconds")] + numbers)
            .map { .text($0) }]
        for player in report.players {
            var row: [XLSXWriter.Cell] = [.text(player.nickname), .text(player.userId == nil ? t("no") : t("yes")), .text(player.state.rawValue),
                                          .number(Double(player.attempts)), player.grade.map { XLSXWriter.Cell.number(Self.percent($0)) } ?? XLSXWriter.Cell.empty,
                                          player.timeTaken.map { .number($0.rounded()) } ?? .empty]
            row += report.questions.map { question in
                player.grade == nil ? XLSXWriter.Cell.empty : XLSXWriter.Cell.number(Self.percent(player.credits[question.id ?? 0]?.value ?? 0))
            }
            players.append(row)
        }
        var questions: [[XLSXWriter.Cell]] = [[t("Question"), t("Question text"), t("Answers"), t("Right"), t("Partly right"),
                                               t("Most common wrong answers")].map { .text($0) }]
        for (index, pair) in zip(report.questions, report.questionRows).enumerated() {
            let (question, row) = pair
            questions.append([.number(Double(index + 1)), .text(question.text), .number(Double(row.answered)), .number(Double(row.right)),
                              .number(Double(row.partlyRight)),
                              .text(row.commonWrongAnswers.map { "\($0.answer) (\($0.count))" }.joined(separator: "; "))])
        }
        return XLSXWriter().write([
            XLSXWriter.Sheet(name: t("Players"), widths: [24, 10, 10, 10, 10, 10] + numbers.map { _ in 12.0 }, rows: players),
            XLSXWriter.Sheet(name: t("Questions"), widths: [10, 50, 10, 10, 12, 50], rows: questions),
        ])
    }

    static func percent(_ value: Double) -> Double { (value * 1000).rounded() / 10 }
}
