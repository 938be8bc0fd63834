import Foundation
import QuizCore
import QuizFormats

/// The report as files: CSV for a spreadsheet (one row per player, a column per question) and
/// JSON with everything the report holds.
extension Assignments.Report {
    /// Grades and credits in percent with one decimal; `separator` ";" writes decimal commas and
    /// a byte-order mark, as Excel expects in locales such as Finnish.
    package func csv(separator: Character = ",") -> String {
        func percent(_ value: Double?) -> String { ResultsCSV.percent(value, separator: separator) }
        var csv = separator == ";" ? "\u{FEFF}" : ""
        let header = ["nickname", "signed_in", "state", "attempts", "grade_percent", "seconds"]
            + questions.indices.map { "q\($0 + 1)_percent" }
        csv += ResultsCSV.line(header, separator: separator)
        for player in players {
            let fields = [player.nickname, player.userId == nil ? "no" : "yes", player.state.rawValue, String(player.attempts),
                          percent(player.grade), player.timeTaken.map { String(Int($0.rounded())) } ?? ""]
                + questions.map { question in percent(player.grade == nil ? nil : player.credits[question.id ?? 0]?.value ?? 0) }
            csv += ResultsCSV.line(fields, separator: separator)
        }
        return csv
    }

    /// Every row of the report; dates in ISO 8601, grades and credits from 0 to 1.
    package func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(File(self))
    }

    private struct File: Encodable {
        struct AssignmentPart: Encodable {
            var id: Int64, code: String, quizId: Int64, title: String, opensAt: Date, closesAt: Date, settings: AssignmentSettings
        }
        struct QuestionPart: Encodable {
            var id: Int64, position: Int, text: String, kind: QuestionKind, points: Int
            var answered: Int, right: Int, partlyRight: Int, commonWrongAnswers: [Assignments.WrongAnswer]
        }
        struct PlayerPart: Encodable {
            var nickname: String, signedIn: Bool, state: Assignments.PlayerState, attempts: Int
            var grade: Double?, timeTakenSeconds: Double?, answeredNow: Int?
            /// By question id, as strings (JSON keys).
            var credits: [String: Double]
        }

        var assignment: AssignmentPart
        var questions: [QuestionPart]
        var players: [PlayerPart]

        init(_ report: Assignments.Report) {
            let a = report.assignment
            assignment = AssignmentPart(id: a.id, code: a.code, quizId: a.quizId, title: a.title, opensAt: a.opensAt, closesAt: a.closesAt,
                                        settings: a.settings)
            questions = zip(report.questions, report.questionRows).enumerated().map { index, pair in
                let (question, row) = pair
                return QuestionPart(id: row.questionId, position: index + 1, text: question.text, kind: question.kind, points: question.points,
                                    answered: row.answered, right: row.right, partlyRight: row.partlyRight,
                                    commonWrongAnswers: row.commonWrongAnswers)
            }
            players = report.players.map { player in
                PlayerPart(nickname: player.nickname, signedIn: player.userId != nil, state: player.state, attempts: player.attempts,
                           grade: player.grade, timeTakenSeconds: player.timeTaken, answeredNow: player.answeredNow,
                           credits: Dictionary(uniqueKeysWithValues: player.credits.map { (String($0.key), $0.value.value) }))
            }
        }
    }
}
