import Foundation
import HTTPTypes
import Hummingbird
import QuizCore
import QuizFormats
import QuizStore
import QuizUseCases

// Authors and admins write news articles and link quizzes to them; admins import feeds.
extension WebController {
    func manageArticlesPage(
        _ visit: Visit, page: Int, done: String?, values: [String: String] = [:], errors: [String: String] = [:],
        importResult: [String: Any]? = nil, status: HTTPResponse.Status? = nil
    ) async throws -> Response {
        guard let user = try await requireAuthor(visit, returnTo: "/manage/articles") else { return try await needsAuthor(visit) }
        let page = min(max(page, 1), 100_000)
        let found = try await store.articles(offset: (page - 1) * Self.articlesPerPage, limit: Self.articlesPerPage)
        var context = base(visit, title: "News articles", tab: "Manage", notice: Self.articleNotice(done))
        context["articles"] = found.articles.map(Self.articleRow)
        context["hasArticles"] = !found.articles.isEmpty
        addPaging(&context, page: page, total: found.total, path: "/manage/articles")
        context["isAdmin"] = user.role == .admin
        try await addArticleForm(&context, values: values, errors: errors, action: "/manage/articles")
        if let importResult {
            for (key, value) in importResult { context[key] = value }
        }
        return renderer.render("manage-articles", context, status: status ?? (errors.isEmpty ? .ok : .unprocessableContent))
    }

    static func articleNotice(_ done: String?) -> String? {
        switch done {
        case "created": "Article added."
        case "saved": "Article saved."
        case "deleted": "Article deleted."
        default: nil
        }
    }

    func articleEditPage(_ visit: Visit, id: Int64, done: String?, values: [String: String]? = nil, errors: [String: String] = [:]) async throws -> Response {
        guard try await requireAuthor(visit, returnTo: "/manage/articles/\(id)") != nil else { return try await needsAuthor(visit) }
        guard let article = try await store.article(id: id) else { throw HTTPError(.notFound) }
        var context = base(visit, title: "Edit article", tab: "Manage", notice: Self.articleNotice(done))
        context["id"] = id
        context["articleTitle"] = article.title
        let stored = ["title": article.title, "summary": article.summary, "source_name": article.sourceName, "url": article.url,
                      "image_url": article.imageURL ?? "", "published_at": Self.formDate(article.publishedAt),
                      "quiz_id": article.quizId.map(String.init) ?? ""]
        try await addArticleForm(&context, values: values ?? stored, errors: errors, action: "/manage/articles/\(id)")
        return renderer.render("manage-article", context, status: errors.isEmpty ? .ok : .unprocessableContent)
    }

    /// The form's fields, messages and quiz choices.
    private func addArticleForm(_ context: inout [String: Any], values: [String: String], errors: [String: String], action: String) async throws {
        context["action"] = action
        for field in ["title", "summary", "source_name", "url", "image_url", "published_at"] {
            context["form_" + field] = values[field] ?? ""
            if let error = errors[field] { context["error_" + field] = error }
        }
        if let error = errors["quiz_id"] { context["error_quiz_id"] = error }
        let chosen = values["quiz_id"] ?? ""
        context["quizzes"] = try await store.outline().flatMap { subject in
            subject.topics.flatMap { topic in
                topic.quizzes.map { quiz -> [String: Any] in
                    ["id": quiz.id, "label": "\(subject.name) › \(topic.name) › \(quiz.title)\(quiz.isPublished ? "" : " (draft)")",
                     "selected": String(quiz.id) == chosen]
                }
            }
        }
        context["noQuiz"] = chosen.isEmpty
    }

    /// The form as a draft, or the messages to show next to its fields.
    private func articleDraft(_ form: WebForm) -> (values: [String: String], draft: ArticleDraft, errors: [String: String]) {
        var values: [String: String] = [:]
        for field in ["title", "summary", "source_name", "url", "image_url", "published_at", "quiz_id"] { values[field] = form.text(field) }
        var errors: [String: String] = [:]
        var published = time.now()
        if let text = values["published_at"], !text.isEmpty {
            if let date = Self.parseFormDate(text) {
                published = date
            } else {
                errors["published_at"] = "Give the date and time as 2026-11-21T09:30 (UTC)."
            }
        }
        var quizId: Int64?
        if let text = values["quiz_id"], !text.isEmpty {
            if let id = Int64(text) { quizId = id } else { errors["quiz_id"] = "Choose a quiz from the list." }
        }
        let image = values["image_url"] ?? ""
        let draft = ArticleDraft(title: values["title"] ?? "", summary: values["summary"] ?? "", sourceName: values["source_name"] ?? "",
                                 url: values["url"] ?? "", imageURL: image.isEmpty ? nil : image, publishedAt: published, quizId: quizId)
        let fieldNames = ["sourceName": "source_name", "imageUrl": "image_url", "publishedAt": "published_at"]
        for error in draft.validationErrors() {
            let key = fieldNames[error.field] ?? error.field
            let message = error.message.capitalizedFirst + "."
            errors[key] = errors[key].map { "\($0) \(message)" } ?? message
        }
        return (values, draft, errors)
    }

    func createArticle(_ visit: Visit, _ form: WebForm) async throws -> Response {
        guard let user = try await requireAuthor(visit, returnTo: "/manage/articles") else { return try await needsAuthor(visit) }
        let (values, draft, errors) = articleDraft(form)
        guard errors.isEmpty else { return try await manageArticlesPage(visit, page: 1, done: nil, values: values, errors: errors) }
        do {
            let id = try await store.createArticle(draft, by: user.id, at: time.now())
            return PageRenderer.redirect(to: "/manage/articles/\(id)?done=created")
        } catch let error as ArticleError {
            return try await manageArticlesPage(visit, page: 1, done: nil, values: values, errors: Self.articleErrors(error))
        }
    }

    func saveArticle(_ visit: Visit, _ form: WebForm, id: Int64) async throws -> Response {
        guard try await requireAuthor(visit, returnTo: "/manage/articles/\(id)") != nil else { return try await needsAuthor(visit) }
        let (values, draft, errors) = articleDraft(form)
        guard errors.isEmpty else { return try await articleEditPage(visit, id: id, done: nil, values: values, errors: errors) }
        do {
            try await store.updateArticle(id: id, draft)
            return PageRenderer.redirect(to: "/manage/articles/\(id)?done=saved")
        } catch StoreError.notFound {
            throw HTTPError(.notFound)
        } catch let error as ArticleError {
            return try await articleEditPage(visit, id: id, done: nil, values: values, errors: Self.articleErrors(error))
        }
    }

    static func articleErrors(_ error: ArticleError) -> [String: String] {
        switch error {
        case .duplicate: ["url": "Another article already has this address."]
        case .quizNotFound: ["quiz_id": "That quiz no longer exists."]
        }
    }

    func deleteArticle(_ visit: Visit, id: Int64) async throws -> Response {
        guard try await requireAuthor(visit, returnTo: "/manage/articles/\(id)") != nil else { return try await needsAuthor(visit) }
        do {
            try await store.deleteArticle(id: id)
        } catch StoreError.notFound {
            throw HTTPError(.notFound)
        }
        return PageRenderer.redirect(to: "/manage/articles?done=deleted")
    }

    /// Admins only: loads the feed and shows what was added, skipped and left out.
    func importFeed(_ visit: Visit, _ form: WebForm) async throws -> Response {
        guard let user = try await requireAuthor(visit, returnTo: "/manage/articles") else { return try await needsAuthor(visit) }
        guard user.role == .admin else {
            return renderer.render("error", errorContext(visit, heading: "Only admins import feeds",
                                                         message: "Importing a news feed needs an admin account."), status: .forbidden)
        }
        let address = form.text("feed_url")
        var result: [String: Any] = ["feedUrl": address]
        guard address.count <= 2_000, ArticleDraft.isWebAddress(address), let url = URL(string: address) else {
            result["importFeedback"] = "Give the feed's http or https address."
            result["importFailed"] = true
            return try await manageArticlesPage(visit, page: 1, done: nil, importResult: result, status: .unprocessableContent)
        }
        do {
            let outcome = try await FeedImport.run(url, into: store, limits: config.remoteImportLimits, by: user.id, at: time.now())
            let summary = outcome.summary
            result["importFeedback"] = "\(outcome.feed.sourceName): \(Self.count(summary.added, "article")) added, \(summary.skipped) already known and skipped."
            let problems = (outcome.feed.skipped + outcome.feed.warnings).map(\.description)
            result["importProblems"] = problems
            result["hasImportProblems"] = !problems.isEmpty
            return try await manageArticlesPage(visit, page: 1, done: nil, importResult: result)
        } catch let error as RemoteFeedLoader.Error {
            switch error {
            case .connectivity(let reason): result["importFeedback"] = "Could not reach \(address): \(reason). Nothing was imported."
            case .privateAddress(let reason): result["importFeedback"] = reason + ". Nothing was imported."
            case .invalidData(let reason, let problems):
                result["importFeedback"] = reason + ". Nothing was imported."
                result["importProblems"] = problems.map(\.description)
                result["hasImportProblems"] = !problems.isEmpty
            }
            result["importFailed"] = true
            return try await manageArticlesPage(visit, page: 1, done: nil, importResult: result, status: .unprocessableContent)
        }
    }

    /// What a datetime-local field shows: "2026-11-21T09:30", UTC.
    static func formDate(_ date: Date) -> String {
        let parts = utcCalendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        func two(_ n: Int?) -> String { n.map { $0 < 10 ? "0\($0)" : "\($0)" } ?? "00" }
        return "\(parts.year ?? 1970)-\(two(parts.month))-\(two(parts.day))T\(two(parts.hour)):\(two(parts.minute))"
    }

    /// "2026-11-21T09:30" (what datetime-local sends), or with ":45" seconds; read as UTC.
    static func parseFormDate(_ text: String) -> Date? {
        let pieces = text.split(whereSeparator: { $0 == "-" || $0 == "T" || $0 == ":" || $0 == " " }).map { Int($0) }
        guard pieces.count == 5 || pieces.count == 6, text.count <= 19, pieces.allSatisfy({ $0 != nil }) else { return nil }
        let numbers = pieces.map { $0 ?? 0 }
        guard (1...9999).contains(numbers[0]), (1...12).contains(numbers[1]), (1...31).contains(numbers[2]),
              (0...23).contains(numbers[3]), (0...59).contains(numbers[4]), numbers.count == 5 || (0...59).contains(numbers[5])
        else { return nil }
        let components = DateComponents(year: numbers[0], month: numbers[1], day: numbers[2], hour: numbers[3], minute: numbers[4],
                                        second: numbers.count == 6 ? numbers[5] : 0)
        guard let date = utcCalendar.date(from: components), utcCalendar.component(.day, from: date) == numbers[2] else { return nil }
        return date
    }

    static var utcCalendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }
}
