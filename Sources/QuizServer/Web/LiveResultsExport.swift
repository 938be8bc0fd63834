import Foundation
import QuizCore
import QuizFormats
import QuizStore
import QuizText
import QuizUseCases

/// A live game's results as files for a spreadsheet: CSV (comma-separated, or semicolon-separated
/// with a byte-order mark and decimal commas, as Excel expects in locales such as Finnish) and an
/// Excel workbook with a summary sheet and a sheet of every answer.
struct LiveResultsExport {
    enum Separator: String {
        case comma, semicolon

        var character: Character { self == .comma ? "," : ";" }

        /// `?separator=comma|semicolon` (or the character itself); else semicolons for a Finnish
        /// page, whose Excel splits CSV on them.
        init(parameter: String?, language: Language) {
            switch parameter?.lowercased() {
            case "comma", ",": self = .comma
            case "semicolon", ";": self = .semicolon
            default: self = language == .fi ? .semicolon : .comma
            }
        }
    }

    let results: LiveGames.Results

    /// One row per player and question asked, in standings order.
    func csv(separator: Separator) -> String {
        var csv = separator == .semicolon ? "\u{FEFF}" : ""
        let header = ["rank", "nickname", "team", "score", "correct", "question", "question_text", "answer", "right", "points", "bonus", "seconds"]
        csv += header.joined(separator: String(separator.character)) + "\r\n"
        for (standing, records) in results.askedGrid {
            for (index, record) in records.enumerated() {
                var seconds = record.map { String(format: "%.3f", Double($0.answer.milliseconds) / 1000) } ?? ""
                if separator == .semicolon { seconds = seconds.replacingOccurrences(of: ".", with: ",") }
                let fields: [String] = [
                    String(standing.rank), standing.player.nickname, standing.player.team.map(String.init) ?? "", String(standing.player.score),
                    String(standing.player.correct), String(index + 1), results.questions[index].text, record.map(results.words) ?? "",
                    record.map { $0.answer.isCorrect ? "yes" : "no" } ?? "", String(record?.answer.points ?? 0), String(record?.answer.bonus ?? 0),
                    seconds,
                ]
                csv += fields.map { Self.field($0, separator: separator.character) }.joined(separator: String(separator.character)) + "\r\n"
            }
        }
        return csv
    }

    /// Quoted when needed; a leading =, +, - or @ is defused (`ResultsCSV`).
    static func field(_ value: String, separator: Character = ",") -> String {
        ResultsCSV.field(value, separator: separator)
    }

    /// "Summary": rank, nickname, team, score, right answers; "Answers": one row per player and
    /// question asked, with numbers as numbers and when it was answered as a date. Texts are
    /// written as text (a cell never holds a formula), so a nickname like "=cmd" stays harmless.
    func workbook(t: Texts) -> Data {
        var summary: [[XLSXWriter.Cell]] = [[t("Rank"), t("Nickname"), t("Team"), t("Score"), t("Right answers")].map { .text($0) }]
        for standing in results.standings {
            summary.append([.number(Double(standing.rank)), .text(standing.player.nickname),
                            standing.player.team.map { .number(Double($0)) } ?? .empty,
                            .number(Double(standing.player.score)), .number(Double(standing.player.correct))])
        }
        var answers: [[XLSXWriter.Cell]] = [[
            t("Nickname"), t("Question"), t("Question text"), t("Answer"), t("Right"), t("Points"), t("Bonus"), t("Seconds"), t("Answered at"),
        ].map { .text($0) }]
        for (standing, records) in results.askedGrid {
            for (index, record) in records.enumerated() {
                var row: [XLSXWriter.Cell] = [.text(standing.player.nickname), .number(Double(index + 1)), .text(results.questions[index].text)]
                if let record {
                    row += [.text(results.words(record)), .text(record.answer.isCorrect ? t("yes") : t("no")),
                            .number(Double(record.answer.points)), .number(Double(record.answer.bonus)),
                            .number(Double(record.answer.milliseconds) / 1000), .date(record.answeredAt)]
                } else {
                    row += [.empty, .empty, .number(0), .number(0)]
                }
                answers.append(row)
            }
        }
        return XLSXWriter().write([
            XLSXWriter.Sheet(name: t("Summary"), widths: [8, 24, 8, 10, 14], rows: summary),
            XLSXWriter.Sheet(name: t("Answers"), widths: [24, 10, 50, 30, 8, 8, 8, 10, 20], rows: answers),
        ])
    }
}
