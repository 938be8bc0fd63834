import ArgumentParser
import Foundation
import QuizCore
import QuizFormats
import QuizServer
import QuizStore

struct Articles: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "articles", abstract: "News articles.", subcommands: [ImportFeed.self]
    )

    struct ImportFeed: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import-feed",
            abstract: "Import the articles of an RSS 2.0 or Atom feed. Articles already stored (same GUID, or URL without one) are skipped.",
            discussion: "Downloads with the remote-import limits: connect 5 s, total 30 s, 20 MiB, 5 redirects."
        )

        @Argument(help: "The feed's http(s) address.")
        var url: String

        @OptionGroup var db: DatabaseOptions

        func run() async throws {
            guard let feedURL = URL(string: url), ArticleDraft.isWebAddress(url) else {
                throw CLIError("quizbox articles import-feed: \(url) is not an http or https address.")
            }
            // The operator can reach their own network anyway: no SSRF to guard against here.
            var limits = RemoteBankLoader.Limits()
            limits.allowPrivateAddresses = true
            let feed: NewsFeedReader.Feed
            do {
                feed = try await RemoteFeedLoader(limits: limits, now: Date()).load(feedURL)
            } catch {
                throw CLIError("quizbox articles import-feed: \(error.description)\nquizbox articles import-feed: nothing was imported.")
            }
            for problem in feed.skipped { print("\(url):\(problem.description) (left out)") }
            for warning in feed.warnings { print("\(url):\(warning.description)") }
            try await db.withStore { store, config in
                let summary = try await store.importArticles(feed.articles, by: nil, at: Date())
                print("Imported \(summary.added) article(s) from \(feed.sourceName) (\(feed.kind.rawValue)) into \(config.databaseDescription); \(summary.skipped) already known and skipped.")
            }
        }
    }
}
