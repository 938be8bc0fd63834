import Foundation
import HTTPTypes
import OpenAPIRuntime
import QuizAPI
import QuizCore
import QuizFormats
import QuizStore
import QuizUseCases

// News articles: everyone signed in reads them; authors and admins write them; admins import feeds.
extension APIHandler {
    func listArticles(_ input: Operations.ListArticles.Input) async throws -> Operations.ListArticles.Output {
        _ = try await requireUser()
        let limit = try APIError.checked(input.query.limit, "limit", default: 20, in: 1...100)
        let offset = try APIError.checked(input.query.offset, "offset", default: 0, in: 0...10_000_000)
        let page = try await store.articles(offset: offset, limit: limit)
        return .ok(.init(body: .json(.init(articles: page.articles.map(Components.Schemas.Article.init), total: page.total))))
    }

    func getArticle(_ input: Operations.GetArticle.Input) async throws -> Operations.GetArticle.Output {
        _ = try await requireUser()
        guard let article = try await store.article(id: input.path.articleId) else { throw APIError.notFound("article") }
        return .ok(.init(body: .json(.init(article))))
    }

    func createArticle(_ input: Operations.CreateArticle.Input) async throws -> Operations.CreateArticle.Output {
        let user = try await requireAuthor()
        guard case .json(let body) = input.body else { throw APIError.sendJSON }
        let draft = try Self.validArticle(body, now: time.now())
        let id = try await articleChange { try await store.createArticle(draft, by: user.id, at: time.now()) }
        guard let article = try await store.article(id: id) else { throw APIError.notFound("article") }
        return .created(.init(body: .json(.init(article))))
    }

    func updateArticle(_ input: Operations.UpdateArticle.Input) async throws -> Operations.UpdateArticle.Output {
        _ = try await requireAuthor()
        guard case .json(let body) = input.body else { throw APIError.sendJSON }
        let draft = try Self.validArticle(body, now: time.now())
        try await articleChange { try await store.updateArticle(id: input.path.articleId, draft) }
        guard let article = try await store.article(id: input.path.articleId) else { throw APIError.notFound("article") }
        return .ok(.init(body: .json(.init(article))))
    }

    func deleteArticle(_ input: Operations.DeleteArticle.Input) async throws -> Operations.DeleteArticle.Output {
        _ = try await requireAuthor()
        try await articleChange { try await store.deleteArticle(id: input.path.articleId) }
        return .noContent(.init())
    }

    func readArticle(_ input: Operations.ReadArticle.Input) async throws -> Operations.ReadArticle.Output {
        let user = try await requireUser()
        let now = time.now()
        let article = try await articleChange { try await store.recordRead(userId: user.id, articleId: input.path.articleId, at: now) }
        // Stored URLs were checked on the way in; checked again so nothing else is ever handed out.
        guard ArticleDraft.isWebAddress(article.url) else {
            throw APIError(.unprocessableContent, "invalid_article_url", "This article has no http(s) address to open.")
        }
        return .ok(.init(body: .json(.init(articleId: article.id, url: article.url, readAt: now))))
    }

    func importArticleFeed(_ input: Operations.ImportArticleFeed.Input) async throws -> Operations.ImportArticleFeed.Output {
        let user = try await requireAdmin()
        guard case .json(let body) = input.body else { throw APIError.sendJSON }
        guard body.url.count <= 2_000, let url = URL(string: body.url), ArticleDraft.isWebAddress(body.url) else {
            throw APIError(.unprocessableContent, "invalid_url", "Give the feed's http or https address.", field: "url")
        }
        do {
            let outcome = try await FeedImport.run(url, into: store, limits: config.remoteImportLimits, by: user.id, at: time.now())
            let feed = outcome.feed
            return .ok(.init(body: .json(.init(
                feedType: feed.kind == .rss ? .rss : .atom, sourceName: feed.sourceName, added: outcome.summary.added,
                skipped: outcome.summary.skipped, problems: feed.skipped.map(Components.Schemas.FormatProblem.init),
                warnings: feed.warnings.map(Components.Schemas.FormatProblem.init)
            ))))
        } catch let error as RemoteFeedLoader.Error {
            switch error {
            case .connectivity(let reason):
                throw APIError(.badGateway, "remote_unreachable", "Could not reach \(url.absoluteString): \(reason).", field: "url")
            case .invalidData(let reason, let problems):
                throw APIError(.unprocessableContent, "invalid_feed", reason + "; nothing was imported.", field: "url", problems: problems)
            case .privateAddress(let reason):
                throw APIError(.unprocessableContent, "private_address", reason + ".", field: "url")
            }
        }
    }

    /// Every problem of the input, or the draft to store.
    static func validArticle(_ body: Components.Schemas.ArticleInput, now: Date) throws -> ArticleDraft {
        let draft = ArticleDraft(title: body.title, summary: body.summary ?? "", sourceName: body.sourceName, url: body.url,
                                 imageURL: body.imageUrl.flatMap { $0.isEmpty ? nil : $0 }, publishedAt: body.publishedAt ?? now,
                                 quizId: body.quizId)
        let errors = draft.validationErrors()
        guard let first = errors.first else { return draft }
        throw APIError(.unprocessableContent, "invalid_article",
                       "The article breaks \(errors.count) rule(s), first: \(first.field) \(first.message).",
                       field: first.field, problems: errors.map { FormatProblem(path: $0.field, message: $0.message) })
    }

    /// Turns the store's refusals into errors a client can act on.
    func articleChange<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch StoreError.notFound {
            throw APIError.notFound("article")
        } catch ArticleError.duplicate {
            throw APIError(.conflict, "duplicate_article", "An article with this address (or feed GUID) already exists.", field: "url")
        } catch ArticleError.quizNotFound {
            throw APIError(.unprocessableContent, "invalid_quizId", "No quiz with that id.", field: "quizId")
        }
    }
}

extension Components.Schemas.Article {
    init(_ article: Article) {
        self.init(id: article.id, title: article.title, summary: article.summary, sourceName: article.sourceName,
                  url: article.url, imageUrl: article.imageURL, publishedAt: article.publishedAt, quizId: article.quizId,
                  createdAt: article.createdAt)
    }
}
