import Foundation
import QuizCore
import QuizFormats
import QuizStore

/// Loads an RSS or Atom feed from an address and reads it. The server's loader (HTTP, with its
/// size and time limits and its private-address policy) is infrastructure; tests give a fake.
package protocol ArticleFeedLoader: Sendable {
    /// `now` stands in for items without a date.
    func loadFeed(_ url: URL, now: Date) async throws(ArticleFeedLoadError) -> NewsFeedReader.Feed
}

/// Why a feed could not be loaded.
package enum ArticleFeedLoadError: Error, Equatable {
    /// The server could not be reached, or did not answer in time.
    case unreachable(String)
    /// The address is on this machine or a private network, and the server may not load from there.
    case privateAddress(String)
    /// What came back is not a feed Quizbox can read (or not a success), with every problem found.
    case unreadable(String, problems: [FormatProblem])
}

/// "Import articles from a feed" (admins): loads and reads the feed, then stores its new articles
/// in one transaction; articles already known (same GUID, or address without one) are skipped.
/// Nothing is stored when the feed cannot be loaded or read.
package struct ImportArticleFeed: Sendable {
    package enum Failure: Error, Equatable {
        /// Importing feeds needs an admin account.
        case notAdmin
        /// Not an http or https address.
        case invalidAddress
        case unreachable(String)
        case privateAddress(String)
        case notAFeed(String, problems: [FormatProblem])
    }

    /// Who imports: someone signed in (an admin), or whoever runs `quizbox` on the server, who
    /// can reach its database anyway.
    package enum Importer: Sendable {
        case user(User)
        case commandLine
    }

    package struct Outcome: Sendable {
        package var feed: NewsFeedReader.Feed
        package var summary: ArticleImportSummary
    }

    let store: any ArticleStore
    let loader: any ArticleFeedLoader
    let time: any TimeSource

    package init(store: any ArticleStore, loader: any ArticleFeedLoader, time: any TimeSource) {
        self.store = store
        self.loader = loader
        self.time = time
    }

    package static var maxAddressLength: Int { 2_000 }

    package func callAsFunction(address: String, by importer: Importer) async throws -> Outcome {
        if case .user(let user) = importer, !user.role.canImportFeeds { throw Failure.notAdmin }
        guard address.count <= Self.maxAddressLength, ArticleDraft.isWebAddress(address), let url = URL(string: address) else {
            throw Failure.invalidAddress
        }
        let now = time.now()
        let feed: NewsFeedReader.Feed
        do throws(ArticleFeedLoadError) {
            feed = try await loader.loadFeed(url, now: now)
        } catch {
            switch error {
            case .unreachable(let reason): throw Failure.unreachable(reason)
            case .privateAddress(let reason): throw Failure.privateAddress(reason)
            case .unreadable(let reason, let problems): throw Failure.notAFeed(reason, problems: problems)
            }
        }
        let userId: Int64? = if case .user(let user) = importer { user.id } else { nil }
        let summary = try await store.importArticles(feed.articles, by: userId, at: now)
        return Outcome(feed: feed, summary: summary)
    }
}
