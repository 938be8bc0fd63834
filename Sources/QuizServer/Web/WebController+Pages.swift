import Foundation
import Hummingbird
import QuizCore
import QuizFormats
import QuizStore

extension WebController {
    func leaderboard(_ visit: Visit) async throws -> Response {
        let user = try requireUser(visit, returnTo: "/leaderboard")
        let board = try await store.leaderboard(userId: user.id, limit: 3)
        func row(_ ranking: Ranking) -> [String: Any] {
            ["rank": ranking.rank, "username": ranking.username, "isMe": ranking.username == user.username,
             "points": ranking.points == 1 ? "1 point" : "\(ranking.points) points"]
        }
        var context = base(visit, title: "Leaderboard", tab: "Leaderboard")
        context["top"] = board.top.map(row)
        if let footer = board.footer {
            var footerRow = row(footer)
            footerRow["footerNote"] = footer.username == user.username ? "Where you stand." : "The last place on the board."
            context["footer"] = footerRow
        }
        return renderer.render("leaderboard", context)
    }

    func manage(_ visit: Visit, feedback: (text: String, ok: Bool, problems: [String])?, values: [String: String] = [:]) async throws -> Response {
        var context = base(visit, title: "Create and manage quizzes")
        let canManage = visit.user.map { $0.role == .author || $0.role == .admin } ?? false
        context["canManage"] = canManage
        if let user = visit.user { context["role"] = user.role.rawValue }
        if canManage {
            context["quizzes"] = Self.listings(try await store.allQuizzes())
            context["subject"] = values["subject"] ?? ""
            context["topic"] = values["topic"] ?? ""
            context["quizTitle"] = values["quiz_title"] ?? ""
            context["csv"] = values["csv"] ?? ""
        }
        var status: HTTPResponse.Status = canManage || visit.user == nil ? .ok : .forbidden
        if let feedback {
            context["importFeedback"] = feedback.text
            context["importFeedbackClass"] = feedback.ok ? "right" : "wrong"
            context["problems"] = feedback.problems
            context["hasProblems"] = !feedback.problems.isEmpty
            if !feedback.ok { status = .unprocessableContent }
        }
        return renderer.render("manage", context, status: status)
    }

    func importCSV(_ visit: Visit, _ form: WebForm) async throws -> Response {
        let user = try requireUser(visit, returnTo: "/manage")
        guard user.role == .author || user.role == .admin else { return try await manage(visit, feedback: nil) }
        let values = ["subject": form.text("subject"), "topic": form.text("topic"), "quiz_title": form.text("quiz_title"),
                      "csv": form["csv"] ?? ""]
        let missing = ["subject", "topic", "quiz_title"].filter { values[$0]!.isEmpty }
        guard missing.isEmpty, !values["csv"]!.isEmpty else {
            return try await manage(visit, feedback: ("Fill in the subject, topic, quiz title and the CSV.", false, []), values: values)
        }
        let options = CSVReader.Options(defaultSubject: values["subject"]!, defaultTopic: values["topic"]!,
                                        quizTitle: values["quiz_title"]!, maxBytes: config.maxBodyBytes)
        do {
            let bank = try CSVReader(options: options).read(Data(values["csv"]!.utf8))
            let summary = try await store.importBank(bank, at: time.now())
            return try await manage(visit, feedback: ("Imported \(summary.questions) question(s) into \(summary.quizzes) quiz(zes).", true, []))
        } catch let error as ImportError {
            return try await manage(visit, feedback: ("Nothing was imported: fix these and send it again.", false,
                                                      error.problems.map(\.description)), values: values)
        }
    }
}
