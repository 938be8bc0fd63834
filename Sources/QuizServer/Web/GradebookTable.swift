import Foundation
import QuizCore
import QuizText

/// The gradebook as an HTML table, written straight into a string: 500 students × 50
/// assignments is 25,000 cells, which a template with a context per cell renders several times
/// slower than this (BENCHMARKS.md, "gradebook"). Every text is escaped.
package enum GradebookTable {
    /// A column closed by `now` (at its time, or early by the teacher) says when it closed, not "due".
    package static func html(_ book: Gradebook, at now: Date, t: Texts) -> String {
        var html = ""
        html.reserveCapacity(200 + book.columns.count * 120 + book.rows.count * (60 + book.columns.count * 40))
        html += "<table class=\"gradebook-table\" id=\"gradebook\"><thead><tr><th scope=\"col\">"
        PageSkeleton.appendEscaped(t("Student"), to: &html)
        html += "</th>"
        for column in book.columns {
            html += "<th scope=\"col\" data-assignment=\"\(column.assignmentId)\">"
            PageSkeleton.appendEscaped(column.title, to: &html)
            html += "<span class=\"cell-meta\">"
            let when = ["date": t.date(column.closesAt)]
            PageSkeleton.appendEscaped(column.closesAt <= now ? t("closed {date}", when) : t("due {date}", when), to: &html)
            html += "</span></th>"
        }
        html += "<th scope=\"col\" class=\"average\">"
        PageSkeleton.appendEscaped(t("Average"), to: &html)
        html += "</th></tr></thead><tbody>"
        let empty = "<td class=\"grade none\">–</td>"
        for row in book.rows {
            html += "<tr data-user=\"\(row.userId)\"><th scope=\"row\">"
            PageSkeleton.appendEscaped(row.username, to: &html)
            html += "</th>"
            for cell in row.cells { html += cell.map { "<td class=\"grade\">" + percent($0, t) + "</td>" } ?? empty }
            html += row.average.map { "<td class=\"grade average\">" + percent($0, t) + "</td>" } ?? "<td class=\"grade average none\">–</td>"
            html += "</tr>"
        }
        html += "</tbody>"
        if book.columnAverages.contains(where: { $0 != nil }) {
            html += "<tfoot><tr><th scope=\"row\">"
            PageSkeleton.appendEscaped(t("Average"), to: &html)
            html += "</th>"
            for average in book.columnAverages { html += average.map { "<td class=\"grade average\">" + percent($0, t) + "</td>" } ?? empty }
            html += "<td></td></tr></tfoot>"
        }
        return html + "</table>"
    }

    /// "83 %" / "83 %": whole percents; the gradebook file keeps a decimal.
    static func percent(_ value: Double, _ t: Texts) -> String {
        t.number(Int((value * 100).rounded())) + "\u{A0}%"
    }
}

/// When a class assignment is due, relative to now and in the reader's language, in UTC as every
/// page's times are: "due today at 14:00 UTC", "due tomorrow at 14:00 UTC", "due 3 Dec 2026 at
/// 14:00 UTC"; "opens …" before it opens; "closed …" after.
enum DueText {
    static func of(_ assignment: Assignment, at now: Date, t: Texts) -> String {
        let window = assignment.window(at: now)
        let date = window == .notOpen ? assignment.opensAt : assignment.closesAt
        let calendar = Pages.utcCalendar
        let days = calendar.dateComponents([.day], from: calendar.startOfDay(for: now), to: calendar.startOfDay(for: date)).day ?? 0
        let values = ["time": time(date, t), "date": t.date(date)]
        switch (window, days) {
        case (.notOpen, 0): return t("opens today at {time}", values)
        case (.notOpen, 1): return t("opens tomorrow at {time}", values)
        case (.notOpen, _): return t("opens {date} at {time}", values)
        case (.open, 0): return t("due today at {time}", values)
        case (.open, 1): return t("due tomorrow at {time}", values)
        case (.open, _): return t("due {date} at {time}", values)
        case (.closed, 0): return t("closed today at {time}", values)
        case (.closed, _): return t("closed {date} at {time}", values)
        }
    }

    /// "14:00 UTC" / "14.00 UTC".
    static func time(_ date: Date, _ t: Texts) -> String {
        let parts = Pages.utcCalendar.dateComponents([.hour, .minute], from: date)
        let (hour, minute) = (parts.hour ?? 0, parts.minute ?? 0)
        let two = { (value: Int) in value < 10 ? "0\(value)" : "\(value)" }
        return t.language == .fi ? "\(hour).\(two(minute)) UTC" : "\(two(hour)):\(two(minute)) UTC"
    }
}
