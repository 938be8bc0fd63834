import Foundation
import Hummingbird
import QuizCore
import QuizFormats
import NIOCore
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

    static var formatChoices: [(value: String, label: String)] { [("", "Recognise it")] + [
        ("csv", "Quizbox CSV"), ("gift", "GIFT"), ("moodle-xml", "Moodle XML"), ("aiken", "Aiken"),
        ("opentdb", "Open Trivia DB JSON"), ("remote", "Question payload {question, answer}"), ("bundle", "Quizbox bundle"),
    ] }

    struct ManageFeedback {
        var text: String
        var ok: Bool
        var problems: [String] = []
        /// Set after a successful preview: how many questions "Import" will store.
        var previewCount: Int?
    }

    func manage(_ visit: Visit, feedback: ManageFeedback?, values: [String: String] = [:]) async throws -> Response {
        var context = base(visit, title: "Create and manage quizzes")
        let canManage = visit.user.map { $0.role == .author || $0.role == .admin } ?? false
        context["canManage"] = canManage
        if let user = visit.user { context["role"] = user.role.rawValue }
        if canManage {
            context["quizzes"] = Self.listings(try await store.allQuizzes())
            for key in ["subject", "topic", "url", "csv"] { context[key] = values[key] ?? "" }
            context["quizTitle"] = values["quiz_title"] ?? ""
            context["formats"] = Self.formatChoices.map {
                ["value": $0.value, "label": $0.label, "selected": $0.value == (values["format"] ?? "")] as [String: Any]
            }
        }
        var status: HTTPResponse.Status = canManage || visit.user == nil ? .ok : .forbidden
        if let feedback {
            context["importFeedback"] = feedback.text
            context["importFeedbackClass"] = feedback.ok ? "right" : "wrong"
            context["problems"] = feedback.problems
            context["hasProblems"] = !feedback.problems.isEmpty
            if let count = feedback.previewCount {
                context["previewed"] = true
                context["previewCount"] = Self.count(count, "question")
            }
            if !feedback.ok { status = .unprocessableContent }
        }
        return renderer.render("manage", context, status: status)
    }

    /// Preview first (what the file holds, what is left out); "Import" stores it, all or nothing.
    func importBank(_ visit: Visit, _ form: WebForm) async throws -> Response {
        let user = try requireUser(visit, returnTo: "/manage")
        guard user.role == .author || user.role == .admin else { return try await manage(visit, feedback: nil) }
        var values = ["subject": form.text("subject"), "topic": form.text("topic"), "quiz_title": form.text("quiz_title"),
                      "csv": form["csv"] ?? "", "url": form.text("url"), "format": form.text("format")]
        let format = BankFormat(rawValue: values["format"]!)
        if format == nil { values["format"] = "" }
        let defaults = ImportDefaults(
            subject: values["subject"]!.isEmpty ? "Imported" : values["subject"]!,
            topic: values["topic"]!.isEmpty ? "Imported" : values["topic"]!,
            quizTitle: values["quiz_title"]!.isEmpty ? "Imported questions" : values["quiz_title"]!, maxBytes: config.maxBodyBytes)
        let result: ReadResult
        let chosen: BankFormat
        if !values["url"]!.isEmpty {
            guard let url = URL(string: values["url"]!) else {
                return try await manage(visit, feedback: .init(text: "That address is not valid.", ok: false), values: values)
            }
            do {
                let loaded = try await RemoteBankLoader().load(url, format: format, defaults: defaults)
                (result, chosen) = (loaded.result, loaded.format)
            } catch {
                let problems: [String]
                if case .invalidData(_, let found) = error { problems = found.map(\.description) } else { problems = [] }
                let text: String = switch error {
                case .connectivity: "Could not load it: \(error.description.prefix(300)). Nothing was imported."
                case .invalidData(let reason, _): "\(reason). Nothing was imported."
                }
                return try await manage(visit, feedback: .init(text: text, ok: false, problems: problems), values: values)
            }
        } else if !values["csv"]!.isEmpty {
            let data = Data(values["csv"]!.utf8)
            chosen = format ?? BankFormat.detect(fileName: "", data: data)
            do {
                result = try chosen.read(data, defaults: defaults)
            } catch {
                return try await manage(visit, feedback: .init(text: "Nothing was imported: fix these and send it again (read as \(chosen.rawValue)).",
                                                               ok: false, problems: error.problems.map(\.description)), values: values)
            }
        } else {
            return try await manage(visit, feedback: .init(text: "Paste a file or give an address.", ok: false), values: values)
        }
        let left = result.warnings.map { "Left out: \($0.description)" }
        if form["action"] != "import" {
            let counts = Dictionary(grouping: result.bank.subjects.flatMap(\.topics).flatMap { $0.questions + $0.quizzes.flatMap(\.questions) },
                                    by: \.kind).map { "\($0.value.count) \($0.key.rawValue)" }.sorted().joined(separator: ", ")
            return try await manage(visit, feedback: .init(
                text: "Read as \(chosen.rawValue): \(Self.count(result.bank.questionCount, "question")) (\(counts)). Nothing is stored until you import.",
                ok: true, problems: left, previewCount: result.bank.questionCount), values: values)
        }
        let summary = try await store.importBank(result.bank, at: time.now())
        return try await manage(visit, feedback: .init(
            text: "Imported \(summary.questions) question(s) into \(summary.quizzes) quiz(zes).", ok: true, problems: left))
    }

    /// A download of one quiz, for authors and admins.
    func exportQuiz(_ visit: Visit, id: Int64, format: String?) async throws -> Response {
        let user = try requireUser(visit, returnTo: "/manage")
        guard user.role == .author || user.role == .admin else { return try await manage(visit, feedback: nil) }
        guard let format = BankFormat(rawValue: format ?? "bundle"), format.canWrite else { throw HTTPError(.badRequest, message: "Unknown export format.") }
        let bank: Bank
        do {
            bank = try await store.exportBank(.quiz(id))
        } catch StoreError.notFound {
            throw HTTPError(.notFound)
        }
        guard let (data, _) = format.write(bank) else { throw HTTPError(.badRequest) }
        var headers = HTTPFields()
        headers[.contentType] = (format.fileExtension == "json" ? "application/json" : format == .moodleXML ? "application/xml" : "text/plain")
            + "; charset=utf-8"
        headers[.contentDisposition] = "attachment; filename=\"quiz-\(id).\(format.fileExtension)\""
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
