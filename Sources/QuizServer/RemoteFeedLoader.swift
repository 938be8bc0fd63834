import Foundation
import QuizFormats
import QuizUseCases

/// "Import articles from a feed": downloads an RSS or Atom feed over HTTP(S) and reads it, with
/// `RemoteBankLoader`'s limits, redirect handling and private-address policy, and its two ways
/// to fail: the server could not be reached (`connectivity`), or what came back is not a feed
/// (`invalidData`, with every problem found).
public struct RemoteFeedLoader: Sendable {
    public typealias Error = RemoteBankLoader.Error

    public var limits: RemoteBankLoader.Limits
    public var now: Date

    public init(limits: RemoteBankLoader.Limits = .init(), now: Date = Date()) {
        self.limits = limits
        self.now = now
    }

    public func load(_ url: URL) async throws(Error) -> NewsFeedReader.Feed {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host != nil else {
            throw .invalidData("only http and https addresses can be loaded: \(url.absoluteString.prefix(200))")
        }
        let data = try await RemoteBankLoader(limits: limits).download(url)
        do {
            return try NewsFeedReader(maxBytes: limits.maxBytes, feedURL: url, now: now).read(data)
        } catch {
            var problems = error.problems
            if error.omittedCount > 0 { problems.append(FormatProblem(message: "…and \(error.omittedCount) more problems")) }
            throw .invalidData("\(url.absoluteString) is not an RSS or Atom feed Quizbox can read", problems: problems)
        }
    }
}

/// The server's feed loader for `ImportArticleFeed`.
extension RemoteFeedLoader: ArticleFeedLoader {
    package func loadFeed(_ url: URL, now: Date) async throws(ArticleFeedLoadError) -> NewsFeedReader.Feed {
        var loader = self
        loader.now = now
        do throws(RemoteFeedLoader.Error) {
            return try await loader.load(url)
        } catch {
            switch error {
            case .connectivity(let reason): throw .unreachable(reason)
            case .privateAddress(let reason): throw .privateAddress(reason)
            case .invalidData(let reason, let problems): throw .unreadable(reason, problems: problems)
            }
        }
    }
}
