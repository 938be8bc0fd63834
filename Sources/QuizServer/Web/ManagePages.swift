import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import QuizCore
import QuizFormats
import QuizStore
import QuizText
import QuizUseCases

/// The /manage page: what authoring needs, the import form (`ImportBank`) and the quizzes to
/// download (`ExportBank`). An import is previewed first; "Import" stores it.
struct ManagePages: Sendable {
    let pages: Pages
    let importBank: ImportBank
    let exportBank: ExportBank

    func register(anyone: some RouterMethods<PageContext>, authors: some RouterMethods<AuthorContext>) {
        anyone.get("/manage") { _, context in try await managePage(context.visit) }
        authors.post("/manage/import", policy: .body(.importPage), in: pages.routes) { _, context in try await importFile(context) }
        authors.get("/manage/quizzes/:id/export") { request, context in
            try await export(context, quizId: context.pathID("id"),
                             format: request.uri.queryParameters["format"].map(String.init))
        }
    }

    // MARK: Models

    struct FormatChoice: Encodable {
        var value: String
        var label: String
        var selected: Bool
    }

    struct QuizRow: Encodable {
        var id: Int64
        var title: String
        var topic: String
        var subject: String
        var questionCount: String
    }

    struct ManagePage: Encodable {
        var canManage: Bool
        var role: String?
        var quizzes: [QuizRow] = []
        var subject = ""
        var topic = ""
        var quizTitle = ""
        var url = ""
        var csv = ""
        var upload = ""
        var uploadName = ""
        var hasUpload = false
        var skipInvalid = false
        var formats: [FormatChoice] = []
        var importFeedback: String?
        var importFeedbackClass: String?
        var problems: [String] = []
        var hasProblems = false
        var places: [String] = []
        var hasPlaces = false
        var previewed = false
        var previewCount: String?
    }

    /// What the import form sent, shown again with the outcome.
    struct ImportValues {
        var subject = ""
        var topic = ""
        var quizTitle = ""
        var url = ""
        var csv = ""
        /// "" when the form left it to be recognised, or sent a format Quizbox does not know.
        var format = ""
        var skipInvalid = false
        var kept: ImportBank.KeptFile?

        init() {}

        init(_ form: WebForm) {
            subject = form.text("subject")
            topic = form.text("topic")
            quizTitle = form.text("quiz_title")
            url = form.text("url")
            csv = form["csv"] ?? ""
            format = BankFormat(rawValue: form.text("format")) == nil ? "" : form.text("format")
            skipInvalid = form["skip_invalid"] == "1"
        }

        var options: ImportBank.Options {
            .init(format: BankFormat(rawValue: format), subject: subject, topic: topic, quizTitle: quizTitle, skipInvalid: skipInvalid)
        }
    }

    struct Feedback {
        var text: String
        var ok: Bool
        var problems: [String] = []
        /// After a preview: how many questions "Import" will store.
        var previewCount: Int?
        /// After a preview: where they go, a line per topic.
        var places: [String] = []
    }

    static func formatChoices(_ t: Texts) -> [(value: String, label: String)] { [("", t("Recognise it"))] + [
        ("csv", "Quizbox CSV"), ("gift", "GIFT"), ("moodle-xml", "Moodle XML"), ("aiken", "Aiken"),
        ("opentdb", "Open Trivia DB JSON"), ("remote", "Question payload {question, answer}"), ("bundle", "Quizbox bundle"),
        ("xlsx", "Excel (.xlsx)"), ("kahoot", "Kahoot quiz template (.xlsx)"),
    ] }

    // MARK: Pages

    /// Signed out, the page says to log in as an author; a player is told what role it needs.
    func managePage(_ visit: Visit) async throws -> Response {
        guard let user = visit.user else {
            return pages.render("manage", ManagePage(canManage: false), visit: visit, title: visit.t("Create and manage quizzes"))
        }
        return try await manage(visit, user: user, feedback: nil, values: ImportValues())
    }

    func manage(_ visit: Visit, user: User, feedback: Feedback?, values: ImportValues) async throws -> Response {
        let t = visit.t
        let quizzes: [QuizListing]
        do {
            quizzes = try await exportBank.quizzes(by: user)
        } catch ExportBank.Failure.notAuthor {
            throw PageRefusal.needsAuthor
        }
        var model = ManagePage(canManage: true, role: user.role.rawValue)
        model.quizzes = quizzes.map {
            QuizRow(id: $0.quiz.id, title: $0.quiz.title, topic: $0.topicName, subject: $0.subjectName,
                    questionCount: t.count($0.quiz.questionCount, "{count} question", "{count} questions"))
        }
        model.subject = values.subject
        model.topic = values.topic
        model.quizTitle = values.quizTitle
        model.url = values.url
        model.csv = values.csv
        model.upload = values.kept?.token ?? ""
        model.uploadName = values.kept?.name ?? ""
        model.hasUpload = values.kept != nil
        model.skipInvalid = values.skipInvalid
        model.formats = Self.formatChoices(t).map { FormatChoice(value: $0.value, label: $0.label, selected: $0.value == values.format) }
        if let feedback {
            model.importFeedback = feedback.text
            model.importFeedbackClass = feedback.ok ? "right" : "wrong"
            model.problems = feedback.problems
            model.hasProblems = !feedback.problems.isEmpty
            model.places = feedback.places
            model.hasPlaces = !feedback.places.isEmpty
            model.previewed = feedback.previewCount != nil
            model.previewCount = feedback.previewCount.map { t.count($0, "{count} question", "{count} questions") }
        }
        return pages.render("manage", model, visit: visit, title: t("Create and manage quizzes"),
                            status: feedback.map { $0.ok ? .ok : .unprocessableContent } ?? .ok)
    }

    /// The file comes from an upload, an address, a paste, or the upload previewed before. A file
    /// chosen after the preview is previewed too: the "Import N" button counted the old one.
    func importFile(_ context: AuthorContext) async throws -> Response {
        let t = context.visit.t
        let form = context.form
        var values = ImportValues(form)
        let source: ImportBank.Source
        var fresh = false
        if let sent = form.files["file"], !sent.fileName.isEmpty || !sent.data.isEmpty {
            source = .upload(sent.data, name: sent.fileName)
            fresh = true
        } else if !values.url.isEmpty {
            source = .address(values.url)
        } else if !values.csv.isEmpty {
            source = .pasted(values.csv)
        } else if !form.text("upload").isEmpty {
            source = .kept(token: form.text("upload"))
        } else {
            return try await manage(context.visit, user: context.user,
                                    feedback: Feedback(text: t("Choose a file, paste one or give an address."), ok: false), values: values)
        }
        let storing = form["action"] == "import" && !fresh
        let feedback: Feedback
        do {
            let report = storing ? try await importBank(source, values.options, by: context.user)
                : try await importBank.preview(source, values.options, by: context.user)
            feedback = Self.feedback(report, t: t)
            // After an import the form starts afresh; after a preview it keeps what was chosen.
            values = storing ? ImportValues() : values
            values.kept = storing ? nil : report.kept
        } catch let failure as ImportBank.Failure {
            if case .unreadable(let file) = failure { values.kept = file.kept }
            feedback = try Self.feedback(failure, skipInvalid: values.skipInvalid, t: t)
        }
        return try await manage(context.visit, user: context.user, feedback: feedback, values: values)
    }

    static func feedback(_ report: ImportBank.Report, t: Texts) -> Feedback {
        let notes = describe(report.skipped, omitted: report.skippedOmitted, t: t).map { t("Skipped: {problem}", ["problem": $0]) }
            + report.warnings.map { t("Left out: {problem}", ["problem": $0.description(t)]) }
        if let summary = report.imported {
            let text = switch summary.quizzes {
            case 0: t.count(summary.questions, "Imported {count} question.", "Imported {count} questions.")
            case 1: t.count(summary.questions, "Imported {count} question into a new quiz.", "Imported {count} questions into a new quiz.")
            default: t.count(summary.questions, "Imported {count} question into {quizzes} new quizzes.", "Imported {count} questions into {quizzes} new quizzes.",
                             ["quizzes": t.number(summary.quizzes)])
            }
            return Feedback(text: text, ok: true, problems: notes)
        }
        // "3 single choice, 1 true or false", most first.
        let counts = report.kinds.sorted { ($0.value, $1.key.rawValue) > ($1.value, $0.key.rawValue) }
            .map { "\(t.number($0.value)) \(ManageText.kindLabel($0.key, t).lowercased())" }.joined(separator: ", ")
        let read = t.count(report.questionCount, "Read as {format}: {count} question ({kinds}).", "Read as {format}: {count} questions ({kinds}).",
                           ["format": report.format.rawValue, "kinds": counts])
        let skipped = report.skipped.isEmpty ? "" : " " + t("The questions with the problems below are skipped.")
        return Feedback(
            text: read + skipped + " " + t("Nothing is stored until you import."),
            ok: true, problems: notes, previewCount: report.questionCount, places: places(report.bank, t: t))
    }

    static func feedback(_ failure: ImportBank.Failure, skipInvalid: Bool, t: Texts) throws -> Feedback {
        func named(_ name: String) -> String { name.isEmpty ? t("the file") : t("“{name}”", ["name": name]) }
        switch failure {
        case .notAuthor:
            throw PageRefusal.needsAuthor
        case .emptyFile(let name):
            return Feedback(text: t("{file} is empty: choose a file that holds questions.", ["file": named(name)]), ok: false)
        case .tooLarge(let name, let limit):
            return Feedback(text: t("{file} is larger than the import limit of {limit} MiB. Nothing was imported.",
                                    ["file": named(name), "limit": t.number(limit >> 20)]), ok: false)
        case .keptFileGone:
            return Feedback(text: t("The file you previewed is no longer kept (files are kept for {minutes} minutes after their preview): choose it again.",
                                    ["minutes": t.number(Int(ImportBank.keptFor / 60))]), ok: false)
        case .notAnAddress:
            return Feedback(text: t("That address is not valid."), ok: false)
        case .download(_, .unreachable(let reason)):
            let why = String(t("could not reach the server: {reason}", ["reason": reason]).prefix(300))
            return Feedback(text: t("Could not load it: {reason}. Nothing was imported.", ["reason": why]), ok: false)
        case .download(_, .unusable(let reason)), .download(_, .privateAddress(let reason)):
            return Feedback(text: t("{reason}. Nothing was imported.", ["reason": t(reason)]), ok: false)
        case .unreadable(let file):
            let problems = describe(file.problems, omitted: file.omitted, t: t)
            if let address = file.address {
                return Feedback(text: t("{address} is not a {format} question bank Quizbox can import. Nothing was imported.",
                                        ["address": address, "format": file.format.rawValue]),
                                ok: false, problems: problems)
            }
            // Skipping is offered only when it would import something: not for a file that is wrong as a whole.
            let advice = file.importableBySkipping == 0
                ? t("These problems concern the whole file or leave no valid question, so nothing was imported (read as {format}).", ["format": file.format.rawValue])
                : t.count(file.importableBySkipping,
                          "Nothing was imported: fix these and send it again, or tick “Skip invalid questions” to import the other {count} question (read as {format}).",
                          "Nothing was imported: fix these and send it again, or tick “Skip invalid questions” to import the other {count} questions (read as {format}).",
                          ["format": file.format.rawValue])
            return Feedback(text: advice, ok: false, problems: problems)
        }
    }

    /// Where a previewed bank's questions go, a line per topic: "History › Rome: 2 questions,
    /// quiz “Rome”" (a subject or topic of that name already there is used, not made again).
    static func places(_ bank: Bank, t: Texts) -> [String] {
        bank.subjects.flatMap { subject in
            subject.topics.map { topic in
                let quizzes = topic.quizzes.map { t("“{name}”", ["name": $0.title]) }.joined(separator: ", ")
                let values = ["place": "\(subject.name) › \(topic.name)", "quizzes": quizzes]
                return switch topic.quizzes.count {
                case 0: t.count(topic.questionCount, "{place}: {count} question, in the topic's bank", "{place}: {count} questions, in the topic's bank", values)
                case 1: t.count(topic.questionCount, "{place}: {count} question, quiz {quizzes}", "{place}: {count} questions, quiz {quizzes}", values)
                default: t.count(topic.questionCount, "{place}: {count} question, quizzes {quizzes}", "{place}: {count} questions, quizzes {quizzes}", values)
                }
            }
        }.prefix(50).map { $0 }
    }

    /// One line per problem, and one for those beyond the listed ones.
    static func describe(_ problems: [FormatProblem], omitted: Int, t: Texts) -> [String] {
        let more = omitted + max(0, problems.count - 200)
        return problems.prefix(200).map { APIError.excerpt($0.description(t), 500) }
            + (more > 0 ? [t("…and {count} more problems", ["count": t.number(more)])] : [])
    }

    /// A download of one quiz.
    func export(_ context: AuthorContext, quizId: Int64, format: String?) async throws -> Response {
        guard let format = BankFormat(rawValue: format ?? "bundle") else { throw HTTPError(.badRequest, message: "Unknown export format.") }
        let exported: ExportBank.Exported
        do {
            exported = try await exportBank(.quiz(quizId), as: format, by: context.user)
        } catch let failure as ExportBank.Failure {
            switch failure {
            case .notAuthor: throw PageRefusal.needsAuthor
            case .notFound: throw HTTPError(.notFound)
            case .notWritable: throw HTTPError(.badRequest, message: "Unknown export format.")
            }
        }
        var headers = HTTPFields()
        headers[.contentType] = exported.contentType
        headers[.contentDisposition] = exported.contentDisposition
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: exported.data)))
    }
}
