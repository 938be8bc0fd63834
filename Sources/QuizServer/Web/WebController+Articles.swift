import Foundation
import HTTPTypes
import Hummingbird
import QuizCore
import QuizFormats
import QuizStore
import QuizUseCases

// News articles: the list everyone signed in reads, "Read the article" through Quizbox, and the
// authoring pages (authors and admins write, admins import feeds).
extension WebController {
    static var articlesPerPage: Int { 20 }

    func registerArticles(on router: Router<AppRequestContext>) {
        router.get("/articles") { request, _ in
            try await page(request) { try await articlesPage($0, page: request.uri.queryParameters["page"].flatMap { Int(String($0)) } ?? 1) }
        }
        router.get("/articles/:id/read") { request, context in
            try await page(request) { try await readArticle($0, id: context.parameters.require("id", as: Int64.self)) }
        }
        router.get("/manage/articles") { request, _ in
            try await page(request) {
                try await manageArticlesPage($0, page: request.uri.queryParameters["page"].flatMap { Int(String($0)) } ?? 1,
                                             done: request.uri.queryParameters["done"].map(String.init))
            }
        }
        router.post("/manage/articles") { request, context in try await post(request, context) { try await createArticle($0, $1) } }
        router.post("/manage/articles/import") { request, context in try await post(request, context) { try await importFeed($0, $1) } }
        router.get("/manage/articles/:id") { request, context in
            try await page(request) {
                try await articleEditPage($0, id: context.parameters.require("id", as: Int64.self),
                                          done: request.uri.queryParameters["done"].map(String.init))
            }
        }
        router.post("/manage/articles/:id") { request, context in
            try await post(request, context) { try await saveArticle($0, $1, id: context.parameters.require("id", as: Int64.self)) }
        }
        router.post("/manage/articles/:id/delete") { request, context in
            try await post(request, context) { visit, _ in try await deleteArticle(visit, id: context.parameters.require("id", as: Int64.self)) }
        }
    }

    // MARK: - Reading

    func articlesPage(_ visit: Visit, page: Int) async throws -> Response {
        _ = try requireUser(visit, returnTo: "/articles")
        let page = min(max(page, 1), 100_000)
        let found = try await store.articles(offset: (page - 1) * Self.articlesPerPage, limit: Self.articlesPerPage)
        let quizzes = Set(try await store.articleQuizzes().map(\.quizId))
        var context = base(visit, title: "News", tab: "Articles")
        context["articles"] = found.articles.map { article -> [String: Any] in
            var row = Self.articleRow(article)
            if let quizId = article.quizId, quizzes.contains(quizId) { row["quizId"] = quizId }
            return row
        }
        context["hasArticles"] = !found.articles.isEmpty
        addPaging(&context, page: page, total: found.total, path: "/articles")
        return renderer.render("articles", context)
    }

    /// Records the read, then sends the reader to the source: only ever an http(s) address.
    func readArticle(_ visit: Visit, id: Int64) async throws -> Response {
        let user = try requireUser(visit, returnTo: "/articles/\(id)/read")
        let article: Article
        do {
            article = try await store.recordRead(userId: user.id, articleId: id, at: time.now())
        } catch StoreError.notFound {
            throw HTTPError(.notFound)
        }
        guard ArticleDraft.isWebAddress(article.url) else {
            return renderer.render("error", errorContext(visit, heading: "This article cannot be opened",
                                                         message: "Its address is not an http or https address."), status: .unprocessableContent)
        }
        var headers = HTTPFields()
        headers[.location] = article.url
        headers[.cacheControl] = "no-store"
        return Response(status: .seeOther, headers: headers)
    }

    static func articleRow(_ article: Article) -> [String: Any] {
        var row: [String: Any] = ["id": article.id, "title": article.title, "summary": article.summary,
                                  "source": article.sourceName, "published": displayDate(article.publishedAt)]
        // Only https images: the page's Content-Security-Policy blocks others (and mixed content).
        if let image = article.imageURL, ArticleDraft.isWebAddress(image), image.lowercased().hasPrefix("https://") { row["imageUrl"] = image }
        return row
    }

    /// "21 Nov 2026", in UTC: the same for every reader, and enough to place news in time.
    static func displayDate(_ date: Date) -> String { Pages.displayDate(date) }

    func addPaging(_ context: inout [String: Any], page: Int, total: Int, path: String) {
        let pages = max(1, (total + Self.articlesPerPage - 1) / Self.articlesPerPage)
        if page > 1 { context["previousPage"] = "\(path)?page=\(page - 1)" }
        if page < pages { context["nextPage"] = "\(path)?page=\(page + 1)" }
        context["pageInfo"] = "Page \(min(page, pages)) of \(pages)"
    }
}
