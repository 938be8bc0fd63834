import Foundation
import HTTPTypes
import Hummingbird
import QuizCore
import QuizFormats
import QuizStore
import QuizText
import QuizUseCases

/// Authors and admins write news articles and link quizzes to them; admins import feeds.
struct ManageArticlePages: Sendable {
    let pages: Pages
    let articles: Articles
    let authoring: ArticleAuthoring
    let importFeed: ImportArticleFeed

    func register(authors: some RouterMethods<AuthorContext>) {
        authors.get("/manage/articles") { request, context in
            let query = request.uri.queryParameters
            return try await listPage(context, page: query["page"].flatMap { Int(String($0)) } ?? 1,
                                      notice: Self.notice(query["done"].map(String.init), t: context.visit.t))
        }
        authors.post("/manage/articles") { _, context in try await create(context) }
        authors.post("/manage/articles/import") { _, context in try await importFeed(context) }
        authors.get("/manage/articles/:id") { request, context in
            try await editPage(context, id: context.pathID("id"),
                               notice: Self.notice(request.uri.queryParameters["done"].map(String.init), t: context.visit.t))
        }
        authors.post("/manage/articles/:id") { _, context in try await save(context, id: context.pathID("id")) }
        authors.post("/manage/articles/:id/delete") { _, context in
            try await delete(context, id: context.pathID("id"))
        }
    }

    // MARK: Models

    struct QuizOption: Encodable {
        var id: Int64
        var label: String
        var selected: Bool
    }

    /// The article form (partial "article-fields"): what was typed, and a message by each field
    /// that breaks a rule.
    struct ArticleForm: Encodable {
        var title = ""
        var summary = ""
        var sourceName = ""
        var url = ""
        var imageUrl = ""
        var publishedAt = ""
        var quizId = ""
        var titleError: String?
        var summaryError: String?
        var sourceNameError: String?
        var urlError: String?
        var imageUrlError: String?
        var publishedAtError: String?
        var quizIdError: String?
        var quizzes: [QuizOption] = []
        var noQuiz = true

        var hasErrors: Bool {
            [titleError, summaryError, sourceNameError, urlError, imageUrlError, publishedAtError, quizIdError].contains { $0 != nil }
        }

        /// Adds `message` by the field the use case calls `field`, after any message already there.
        mutating func add(_ message: String, for field: String) {
            let path: WritableKeyPath<ArticleForm, String?>? = switch field {
            case "title": \.titleError
            case "summary": \.summaryError
            case "sourceName": \.sourceNameError
            case "url": \.urlError
            case "imageUrl": \.imageUrlError
            case "publishedAt": \.publishedAtError
            case "quizId": \.quizIdError
            default: nil
            }
            guard let path else { return }
            self[keyPath: path] = self[keyPath: path].map { "\($0) \(message)" } ?? message
        }

        mutating func add(_ problems: [Question.ValidationError], t: Texts) {
            for problem in problems {
                let message = t(problem.message)
                add(message.prefix(1).uppercased() + message.dropFirst() + ".", for: problem.field)
            }
        }
    }

    struct ListPage: Encodable {
        var articles: [ArticlePages.ArticleRow]
        var hasArticles: Bool
        var previousPage: String?
        var nextPage: String?
        var pageInfo: String
        var isAdmin: Bool
        var action: String
        var form: ArticleForm
        var feedUrl: String?
        var importFeedback: String?
        var importFailed: Bool
        var importProblems: [String]
        var hasImportProblems: Bool
    }

    struct EditPage: Encodable {
        var id: Int64
        var articleTitle: String
        var action: String
        var form: ArticleForm
    }

    /// What a feed import did, or why it did nothing.
    struct ImportResult {
        var address: String
        var feedback: String
        var failed: Bool
        var problems: [String] = []
    }

    static func notice(_ done: String?, t: Texts) -> String? {
        switch done {
        case "created": t("Article added.")
        case "saved": t("Article saved.")
        case "deleted": t("Article deleted.")
        default: nil
        }
    }

    // MARK: Pages

    func listPage(_ context: AuthorContext, page number: Int = 1, notice: String? = nil, form: ArticleForm? = nil,
                  imported: ImportResult? = nil, status: HTTPResponse.Status? = nil) async throws -> Response {
        let t = context.visit.t
        var form = form ?? ArticleForm()
        async let shelf = articles.shelf(number)
        try await addQuizzes(to: &form, user: context.user, t: t)
        let found = try await shelf
        let paging = ArticlePages.Paging(found, path: "/manage/articles", t: t)
        let model = ListPage(
            articles: found.articles.map { ArticlePages.ArticleRow($0, t: t) }, hasArticles: !found.articles.isEmpty,
            previousPage: paging.previousPage, nextPage: paging.nextPage, pageInfo: paging.pageInfo,
            isAdmin: context.user.role.canImportFeeds, action: "/manage/articles", form: form,
            feedUrl: imported?.address, importFeedback: imported?.feedback, importFailed: imported?.failed ?? false,
            importProblems: imported?.problems ?? [], hasImportProblems: !(imported?.problems.isEmpty ?? true))
        return pages.render("manage-articles", model, visit: context.visit, title: t("News articles"), tab: "Manage", notice: notice,
                            status: status ?? (form.hasErrors ? .unprocessableContent : .ok))
    }

    func editPage(_ context: AuthorContext, id: Int64, notice: String? = nil, form: ArticleForm? = nil) async throws -> Response {
        let article: Article
        do {
            article = try await authoring.article(id: id, by: context.user)
        } catch let failure as ArticleAuthoring.Failure {
            throw refusal(failure)
        }
        var form = form ?? ArticleForm(
            title: article.title, summary: article.summary, sourceName: article.sourceName, url: article.url,
            imageUrl: article.imageURL ?? "", publishedAt: Self.formDate(article.publishedAt), quizId: article.quizId.map(String.init) ?? "")
        try await addQuizzes(to: &form, user: context.user, t: context.visit.t)
        let model = EditPage(id: id, articleTitle: article.title, action: "/manage/articles/\(id)", form: form)
        return pages.render("manage-article", model, visit: context.visit, title: context.visit.t("Edit article"), tab: "Manage", notice: notice,
                            status: form.hasErrors ? .unprocessableContent : .ok)
    }

    /// The quizzes to choose from, the chosen one selected.
    private func addQuizzes(to form: inout ArticleForm, user: User, t: Texts) async throws {
        let chosen = form.quizId
        do {
            form.quizzes = try await authoring.quizChoices(by: user).map { quiz in
                let path = "\(quiz.subject) › \(quiz.topic) › \(quiz.title)"
                return QuizOption(id: quiz.id, label: quiz.isPublished ? path : t("{quiz} (draft)", ["quiz": path]),
                           selected: String(quiz.id) == chosen)
            }
        } catch let failure as ArticleAuthoring.Failure {
            throw refusal(failure)
        }
        form.noQuiz = chosen.isEmpty
    }

    /// The form as the use case's fields, and the form as typed with a message by each field it
    /// could not read (and by each rule those fields break).
    private func read(_ form: WebForm, t: Texts) -> (fields: ArticleAuthoring.Fields, form: ArticleForm) {
        var typed = ArticleForm(title: form.text("title"), summary: form.text("summary"), sourceName: form.text("source_name"),
                                url: form.text("url"), imageUrl: form.text("image_url"), publishedAt: form.text("published_at"),
                                quizId: form.text("quiz_id"))
        var published: Date?
        if !typed.publishedAt.isEmpty {
            published = Self.parseFormDate(typed.publishedAt)
            if published == nil { typed.publishedAtError = t("Give the date and time as 2026-11-21T09:30 (UTC).") }
        }
        var quizId: Int64?
        if !typed.quizId.isEmpty {
            quizId = Int64(typed.quizId)
            if quizId == nil { typed.quizIdError = t("Choose a quiz from the list.") }
        }
        let fields = ArticleAuthoring.Fields(title: typed.title, summary: typed.summary, sourceName: typed.sourceName, url: typed.url,
                                             imageURL: typed.imageUrl, publishedAt: published, quizId: quizId)
        // A field that could not be read is shown with every other problem of the form at once.
        if typed.hasErrors { typed.add(authoring.problems(fields), t: t) }
        return (fields, typed)
    }

    func create(_ context: AuthorContext) async throws -> Response {
        let (fields, typed) = read(context.form, t: context.visit.t)
        var form = typed
        guard !form.hasErrors else { return try await listPage(context, form: form) }
        do {
            let article = try await authoring.create(fields, by: context.user)
            return PageRenderer.redirect(to: "/manage/articles/\(article.id)?done=created")
        } catch let failure as ArticleAuthoring.Failure {
            try mark(&form, failure, t: context.visit.t)
            return try await listPage(context, form: form)
        }
    }

    func save(_ context: AuthorContext, id: Int64) async throws -> Response {
        let (fields, typed) = read(context.form, t: context.visit.t)
        var form = typed
        guard !form.hasErrors else { return try await editPage(context, id: id, form: form) }
        do {
            _ = try await authoring.update(id: id, fields, by: context.user)
            return PageRenderer.redirect(to: "/manage/articles/\(id)?done=saved")
        } catch let failure as ArticleAuthoring.Failure {
            try mark(&form, failure, t: context.visit.t)
            return try await editPage(context, id: id, form: form)
        }
    }

    func delete(_ context: AuthorContext, id: Int64) async throws -> Response {
        do {
            try await authoring.delete(id: id, by: context.user)
        } catch let failure as ArticleAuthoring.Failure {
            throw refusal(failure)
        }
        return PageRenderer.redirect(to: "/manage/articles?done=deleted")
    }

    /// Puts a refusal the author can fix by its field; anything else ends the page.
    private func mark(_ form: inout ArticleForm, _ failure: ArticleAuthoring.Failure, t: Texts) throws {
        switch failure {
        case .invalid(let problems): form.add(problems, t: t)
        case .duplicate: form.urlError = t("Another article already has this address.")
        case .quizNotFound: form.quizIdError = t("That quiz no longer exists.")
        case .notAuthor, .notFound: throw refusal(failure)
        }
    }

    private func refusal(_ failure: ArticleAuthoring.Failure) -> any Error {
        failure == .notAuthor ? PageRefusal.needsAuthor : HTTPError(.notFound)
    }

    /// Admins only: loads the feed and shows what was added, skipped and left out.
    func importFeed(_ context: AuthorContext) async throws -> Response {
        let t = context.visit.t
        let address = context.form.text("feed_url")
        do {
            let outcome = try await importFeed(address: address, by: .user(context.user))
            let summary = outcome.summary
            let result = ImportResult(
                address: address,
                feedback: t.count(summary.added, "{source}: {count} article added, {skipped} already known and skipped.",
                                  "{source}: {count} articles added, {skipped} already known and skipped.",
                                  ["source": outcome.feed.sourceName, "skipped": t.number(summary.skipped)]),
                failed: false, problems: (outcome.feed.skipped + outcome.feed.warnings).map { t($0.description) })
            return try await listPage(context, imported: result)
        } catch let failure as ImportArticleFeed.Failure {
            var result = ImportResult(address: address, feedback: "", failed: true)
            switch failure {
            case .notAdmin:
                return pages.error(context.visit, heading: t("Only admins import feeds"), message: t("Importing a news feed needs an admin account."),
                                   status: .forbidden)
            case .invalidAddress: result.feedback = t("Give the feed's http or https address.")
            case .unreachable(let reason):
                result.feedback = t("Could not reach {address}: {reason}. Nothing was imported.", ["address": address, "reason": t(reason)])
            case .privateAddress(let reason): result.feedback = t("{reason}. Nothing was imported.", ["reason": t(reason)])
            case .notAFeed(let reason, let problems):
                result.feedback = t("{reason}. Nothing was imported.", ["reason": t(reason)])
                result.problems = problems.map { t($0.description) }
            }
            return try await listPage(context, imported: result, status: .unprocessableContent)
        }
    }

    /// What a datetime-local field shows: "2026-11-21T09:30", UTC.
    static func formDate(_ date: Date) -> String {
        let parts = Pages.utcCalendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
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
        let calendar = Pages.utcCalendar
        guard let date = calendar.date(from: components), calendar.component(.day, from: date) == numbers[2] else { return nil }
        return date
    }
}
