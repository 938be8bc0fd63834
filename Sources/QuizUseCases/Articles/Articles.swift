import Foundation
import QuizCore
import QuizStore

/// Reading the news: the list, newest first, one article, and "read it", which records the read
/// and hands out the article's address (only ever an http or https one).
package struct Articles: Sendable {
    package enum Failure: Error, Equatable {
        case notFound
        /// The stored address is not one a reader may be sent to.
        case noWebAddress
    }

    /// One page of the list, by its number (from 1).
    package struct Shelf: Sendable, Equatable {
        package var articles: [Article]
        /// The page shown: the one asked for, brought within 1…100,000.
        package var number: Int
        /// At least 1, even with no article.
        package var pageCount: Int
    }

    let store: any ArticleStore
    let time: any TimeSource

    package init(store: any ArticleStore, time: any TimeSource) {
        self.store = store
        self.time = time
    }

    package static var perPage: Int { 20 }

    /// `limit` articles from `offset`, and how many there are in all.
    package func list(offset: Int, limit: Int) async throws -> ArticlePage {
        try await store.articles(offset: offset, limit: limit)
    }

    /// Page `number` of the list, as authors manage it: every article with the quiz it links to.
    package func shelf(_ number: Int) async throws -> Shelf {
        let number = min(max(number, 1), 100_000)
        let page = try await store.articles(offset: (number - 1) * Self.perPage, limit: Self.perPage)
        return Shelf(articles: page.articles, number: number, pageCount: max(1, (page.total + Self.perPage - 1) / Self.perPage))
    }

    /// Page `number` of the news as readers see it: an article's quiz only when it can be taken
    /// (published).
    package func news(_ number: Int) async throws -> Shelf {
        async let shelf = shelf(number)
        async let published = store.articleQuizzes()
        var news = try await shelf
        let takeable = Set(try await published.map(\.quizId))
        for index in news.articles.indices where news.articles[index].quizId.map({ !takeable.contains($0) }) ?? false {
            news.articles[index].quizId = nil
        }
        return news
    }

    package func article(id: Int64) async throws -> Article {
        guard let article = try await store.article(id: id) else { throw Failure.notFound }
        return article
    }

    /// Records that the user read the article (the first time counts) and returns it, to send
    /// them to its address, with the time of this read.
    package func read(articleId: Int64, userId: Int64) async throws -> (article: Article, readAt: Date) {
        let now = time.now()
        let article: Article
        do {
            article = try await store.recordRead(userId: userId, articleId: articleId, at: now)
        } catch StoreError.notFound {
            throw Failure.notFound
        }
        // Stored addresses were checked on the way in; checked again so nothing else is ever handed out.
        guard ArticleDraft.isWebAddress(article.url) else { throw Failure.noWebAddress }
        return (article, now)
    }
}
