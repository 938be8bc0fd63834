import Foundation
import Hummingbird
import QuizCore
import QuizFormats
import NIOCore
import QuizStore
import QuizUseCases

extension WebController {
    /// The manage page's list of quizzes (the players' list is `BrowsePages`).
    static func listings(_ listings: [QuizListing]) -> [[String: Any]] {
        listings.map {
            ["id": $0.quiz.id, "title": $0.quiz.title, "topic": $0.topicName, "subject": $0.subjectName,
             "questionCount": count($0.quiz.questionCount, "question")]
        }
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
            for key in ["subject", "topic", "url", "csv", "upload"] { context[key] = values[key] ?? "" }
            context["skipInvalid"] = values["skip_invalid"] == "1"
            context["hasUpload"] = !(values["upload"] ?? "").isEmpty
            context["uploadName"] = values["upload_name"] ?? ""
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
