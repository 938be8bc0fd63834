import Foundation
import HTTPTypes
import OpenAPIRuntime
import QuizAPI
import QuizCore
import QuizFormats
import QuizStore
import QuizUseCases

/// News articles (`Articles`, `ArticleAuthoring`, `ImportArticleFeed`): everyone signed in reads
/// them; authors and admins write them; admins import feeds.
struct ArticlesAPI: Sendable {
    let articles: Articles
    let authoring: ArticleAuthoring
    let importFeed: ImportArticleFeed

    func listArticles(_ input: Operations.ListArticles.Input, by _: SignedInCaller) async throws -> Operations.ListArticles.Output {
        let limit = try APIError.checked(input.query.limit, "limit", default: Articles.perPage, in: 1...100)
        let offset = try APIError.checked(input.query.offset, "offset", default: 0, in: 0...10_000_000)
        let page = try await articles.list(offset: offset, limit: limit)
        return .ok(.init(body: .json(.init(articles: page.articles.map(Components.Schemas.Article.init), total: page.total))))
    }

    func getArticle(_ input: Operations.GetArticle.Input, by _: SignedInCaller) async throws -> Operations.GetArticle.Output {
        do {
            return .ok(.init(body: .json(.init(try await articles.article(id: input.path.articleId)))))
        } catch let failure as Articles.Failure {
            throw APIError(failure)
        }
    }

    func readArticle(_ input: Operations.ReadArticle.Input, by caller: SignedInCaller) async throws -> Operations.ReadArticle.Output {
        do {
            let read = try await articles.read(articleId: input.path.articleId, userId: caller.user.id)
            return .ok(.init(body: .json(.init(articleId: read.article.id, url: read.article.url, readAt: read.readAt))))
        } catch let failure as Articles.Failure {
            throw APIError(failure)
        }
    }

    func createArticle(_ input: Operations.CreateArticle.Input, by caller: AuthorCaller) async throws -> Operations.CreateArticle.Output {
        guard case .json(let body) = input.body else { throw APIError.unsupportedMediaType }
        do {
            return .created(.init(body: .json(.init(try await authoring.create(.init(body), by: caller.user)))))
        } catch let failure as ArticleAuthoring.Failure {
            throw APIError(failure)
        }
    }

    func updateArticle(_ input: Operations.UpdateArticle.Input, by caller: AuthorCaller) async throws -> Operations.UpdateArticle.Output {
        guard case .json(let body) = input.body else { throw APIError.unsupportedMediaType }
        do {
            return .ok(.init(body: .json(.init(try await authoring.update(id: input.path.articleId, .init(body), by: caller.user)))))
        } catch let failure as ArticleAuthoring.Failure {
            throw APIError(failure)
        }
    }

    func deleteArticle(_ input: Operations.DeleteArticle.Input, by caller: AuthorCaller) async throws -> Operations.DeleteArticle.Output {
        do {
            try await authoring.delete(id: input.path.articleId, by: caller.user)
            return .noContent(.init())
        } catch let failure as ArticleAuthoring.Failure {
            throw APIError(failure)
        }
    }

    func importArticleFeed(_ input: Operations.ImportArticleFeed.Input, by caller: AdminCaller) async throws -> Operations.ImportArticleFeed.Output {
        guard case .json(let body) = input.body else { throw APIError.unsupportedMediaType }
        do {
            let outcome = try await importFeed(address: body.url, by: .user(caller.user))
            let feed = outcome.feed
            return .ok(.init(body: .json(.init(
                feedType: feed.kind == .rss ? .rss : .atom, sourceName: feed.sourceName, added: outcome.summary.added,
                skipped: outcome.summary.skipped, problems: feed.skipped.map(Components.Schemas.FormatProblem.init),
                warnings: feed.warnings.map(Components.Schemas.FormatProblem.init)
            ))))
        } catch let failure as ImportArticleFeed.Failure {
            throw APIError(failure, address: body.url)
        }
    }
}

extension ArticleAuthoring.Fields {
    init(_ body: Components.Schemas.ArticleInput) {
        self.init(title: body.title, summary: body.summary ?? "", sourceName: body.sourceName, url: body.url, imageURL: body.imageUrl,
                  publishedAt: body.publishedAt, quizId: body.quizId)
    }
}

extension APIError {
    init(_ failure: Articles.Failure) {
        switch failure {
        case .notFound: self = .notFound("article")
        case .noWebAddress: self.init(.unprocessableContent, "invalid_article_url", "This article has no http(s) address to open.")
        }
    }

    init(_ failure: ArticleAuthoring.Failure) {
        switch failure {
        case .notAuthor:
            self = .needsAuthor
        case .invalid(let problems):
            let first = problems.first ?? .init(field: "", message: "")
            self.init(.unprocessableContent, "invalid_article",
                      "The article breaks \(problems.count) rule(s), first: \(first.field) \(first.message).",
                      field: first.field, problems: problems.map { FormatProblem(path: $0.field, message: $0.message) })
        case .duplicate:
            self.init(.conflict, "duplicate_article", "An article with this address (or feed GUID) already exists.", field: "url")
        case .quizNotFound:
            self.init(.unprocessableContent, "invalid_quizId", "No quiz with that id.", field: "quizId")
        case .notFound:
            self = .notFound("article")
        }
    }

    init(_ failure: ImportArticleFeed.Failure, address: String) {
        switch failure {
        case .notAdmin:
            self = .needsAdmin
        case .invalidAddress:
            self.init(.unprocessableContent, "invalid_url", "Give the feed's http or https address.", field: "url")
        case .unreachable(let reason):
            self.init(.badGateway, "remote_unreachable", "Could not reach \(address): \(reason).", field: "url")
        case .notAFeed(let reason, let problems):
            self.init(.unprocessableContent, "invalid_feed", reason + "; nothing was imported.", field: "url", problems: problems)
        case .privateAddress(let reason):
            self.init(.unprocessableContent, "private_address", reason + ".", field: "url")
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
