import Foundation
import QuizCore
import QuizFormats
import QuizStore
import QuizUseCases

/// "Import articles from a feed", shared by the API, the admin page and `quizbox articles
/// import-feed`: load and read the feed, then store its new articles in one transaction.
public enum FeedImport {
    public struct Outcome: Sendable {
        public var feed: NewsFeedReader.Feed
        public var summary: ArticleImportSummary
    }

    /// Throws `RemoteFeedLoader.Error` when the feed cannot be loaded or read; nothing is stored then.
    public static func run(
        _ url: URL, into store: some ArticleStore, limits: RemoteBankLoader.Limits, by userId: Int64?, at now: Date
    ) async throws -> Outcome {
        let feed = try await RemoteFeedLoader(limits: limits, now: now).load(url)
        let summary = try await store.importArticles(feed.articles, by: userId, at: now)
        return Outcome(feed: feed, summary: summary)
    }
}
