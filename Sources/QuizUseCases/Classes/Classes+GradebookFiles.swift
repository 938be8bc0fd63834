import Foundation
import QuizCore
import QuizFormats

/// The gradebook as files: CSV (one row per student, a column per assignment, grades in percent)
/// and an Excel workbook with the same percentages as numbers.
extension Gradebook {
    /// Grades in percent with one decimal; `separator` ";" writes decimal commas and a
    /// byte-order mark, as Excel expects in locales such as Finnish. Titles and usernames are
    /// defused against formulas (`ResultsCSV`).
    package func csv(separator: Character = ",") -> String {
        func percent(_ value: Double?) -> String { ResultsCSV.percent(value, separator: separator) }
        var csv = separator == ";" ? "\u{FEFF}" : ""
        csv += ResultsCSV.line(["username"] + columns.map(\.title) + ["average_percent"], separator: separator)
        for row in rows {
            csv += ResultsCSV.line([row.username] + row.cells.map(percent) + [percent(row.average)], separator: separator)
        }
        if rows.count > 1 || columnAverages.contains(where: { $0 != nil }) {
            csv += ResultsCSV.line(["average"] + columnAverages.map(percent) + [""], separator: separator)
        }
        return csv
    }

    /// One sheet named `sheet`, grades in percent: `student`, each assignment's title, `average` as the header; a
    /// last row `average` of the column averages. Texts are written as text, never formulas.
    package func workbook(sheet: String, student: String, average: String) -> Data {
        func cell(_ value: Double?) -> XLSXWriter.Cell { value.map { .number(($0 * 1000).rounded() / 10) } ?? .empty }
        var rows: [[XLSXWriter.Cell]] = [[.text(student)] + columns.map { .text($0.title) } + [.text(average)]]
        for row in self.rows {
            rows.append([.text(row.username)] + row.cells.map(cell) + [cell(row.average)])
        }
        if self.rows.count > 1 || columnAverages.contains(where: { $0 != nil }) {
            rows.append([.text(average)] + columnAverages.map(cell) + [.empty])
        }
        return XLSXWriter().write([XLSXWriter.Sheet(name: sheet, widths: [24] + columns.map { _ in 14 } + [12], rows: rows)])
    }
}
