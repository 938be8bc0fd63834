import ArgumentParser
import Foundation
import QuizCore
import QuizFormats
import QuizServer
import QuizStore
import QuizUseCases

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
            guard ArticleDraft.isWebAddress(url) else {
                throw CLIError("quizbox articles import-feed: \(url) is not an http or https address.")
            }
            // The operator can reach their own network anyway: no SSRF to guard against here.
            var limits = RemoteBankLoader.Limits()
            limits.allowPrivateAddresses = true
            try await db.withStore { store, config in
                let importer = ImportArticleFeed(store: store, loader: RemoteFeedLoader(limits: limits), time: SystemTimeSource())
                let outcome: ImportArticleFeed.Outcome
                do {
                    outcome = try await importer(address: url, by: .commandLine)
                } catch let failure as ImportArticleFeed.Failure {
                    throw CLIError("quizbox articles import-feed: \(Self.describe(failure))\nquizbox articles import-feed: nothing was imported.")
                }
                let feed = outcome.feed
                for problem in feed.skipped { print("\(url):\(problem.description) (left out)") }
                for warning in feed.warnings { print("\(url):\(warning.description)") }
                print("Imported \(outcome.summary.added) article(s) from \(feed.sourceName) (\(feed.kind.rawValue)) into \(config.databaseDescription); \(outcome.summary.skipped) already known and skipped.")
            }
        }

        static func describe(_ failure: ImportArticleFeed.Failure) -> String {
            switch failure {
            case .notAdmin: "importing feeds needs an admin account"
            case .invalidAddress: "that is not an http or https address"
            case .unreachable(let reason): "could not reach the server: \(reason)"
            case .privateAddress(let reason): reason
            case .notAFeed(let reason, let problems): ([reason] + problems.map(\.description)).joined(separator: "\n")
            }
        }
    }
}
