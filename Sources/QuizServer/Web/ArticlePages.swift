import Foundation
import HTTPTypes
import Hummingbird
import QuizCore
import QuizStore
import QuizText
import QuizUseCases

/// The news everyone signed in reads: the list, and "Read the article" through Quizbox, which
/// records the read and sends the reader on to the source.
struct ArticlePages: Sendable {
    let pages: Pages
    let articles: Articles

    func register(signedIn: some RouterMethods<SignedInContext>) {
        signedIn.get("/articles") { request, context in
            try await newsPage(context.visit, page: request.uri.queryParameters["page"].flatMap { Int(String($0)) } ?? 1)
        }
        signedIn.get("/articles/:id/read") { _, context in try await read(context, id: context.pathID("id")) }
    }

    // MARK: Models

    /// An article in a list (the news, the authors' list).
    struct ArticleRow: Encodable {
        var id: Int64
        var title: String
        var summary: String
        var source: String
        var published: String
        var imageUrl: String?
        var quizId: Int64?

        init(_ article: Article, t: Texts) {
            id = article.id
            title = article.title
            summary = article.summary
            source = article.sourceName
            published = t.date(article.publishedAt)
            // Only https images: the page's Content-Security-Policy blocks others (and mixed content).
            if let image = article.imageURL, ArticleDraft.isWebAddress(image), image.lowercased().hasPrefix("https://") { imageUrl = image }
            quizId = article.quizId
        }
    }

    /// The links between the pages of a list.
    struct Paging {
        var previousPage: String?
        var nextPage: String?
        var pageInfo: String

        init(_ shelf: Articles.Shelf, path: String, t: Texts) {
            if shelf.number > 1 { previousPage = "\(path)?page=\(shelf.number - 1)" }
            if shelf.number < shelf.pageCount { nextPage = "\(path)?page=\(shelf.number + 1)" }
            pageInfo = t("Page {page} of {pages}", ["page": t.number(min(shelf.number, shelf.pageCount)), "pages": t.number(shelf.pageCount)])
        }
    }

    struct NewsPage: Encodable {
        var articles: [ArticleRow]
        var hasArticles: Bool
        var previousPage: String?
        var nextPage: String?
        var pageInfo: String
    }

    // MARK: Pages

    func newsPage(_ visit: Visit, page number: Int) async throws -> Response {
        let t = visit.t
        let shelf = try await articles.news(number)
        let paging = Paging(shelf, path: "/articles", t: t)
        let model = NewsPage(articles: shelf.articles.map { ArticleRow($0, t: t) }, hasArticles: !shelf.articles.isEmpty,
                             previousPage: paging.previousPage, nextPage: paging.nextPage, pageInfo: paging.pageInfo)
        return pages.render("articles", model, visit: visit, title: t("News"), tab: "Articles")
    }

    /// Records the read, then sends the reader to the source: only ever an http(s) address.
    func read(_ context: SignedInContext, id: Int64) async throws -> Response {
        let article: Article
        do {
            article = try await articles.read(articleId: id, userId: context.user.id).article
        } catch let failure as Articles.Failure {
            switch failure {
            case .notFound: throw HTTPError(.notFound)
            case .noWebAddress:
                return pages.error(context.visit, heading: context.visit.t("This article cannot be opened"),
                                   message: context.visit.t("Its address is not an http or https address."), status: .unprocessableContent)
            }
        }
        var headers = HTTPFields()
        headers[.location] = article.url
        headers[.cacheControl] = "no-store"
        return Response(status: .seeOther, headers: headers)
    }
}
