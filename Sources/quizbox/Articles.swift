import ArgumentParser
import Foundation
import QuizCore
import QuizFormats
import QuizServer
import QuizStore
import QuizText
import QuizUseCases

struct Articles: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "articles", abstract: t("News articles."), subcommands: [ImportFeed.self]
    )

    struct ImportFeed: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import-feed",
            abstract: t("Import the articles of an RSS 2.0 or Atom feed. Articles already stored (same GUID, or URL without one) are skipped."),
            discussion: t("Downloads with the remote-import limits: connect 5 s, total 30 s, 20 MiB, 5 redirects.")
        )

        @Argument(help: ArgumentHelp(t("The feed's http(s) address.")))
        var url: String

        @OptionGroup var db: DatabaseOptions

        func run() async throws {
            guard ArticleDraft.isWebAddress(url) else {
                throw CLIError("quizbox articles import-feed: " + t("{address} is not an http or https address.", ["address": url]))
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
                    throw CLIError("quizbox articles import-feed: \(Self.describe(failure))\nquizbox articles import-feed: " + t("nothing was imported."))
                }
                let feed = outcome.feed
                for problem in feed.skipped { print("\(url):" + t("{problem} (left out)", ["problem": problem.description(t)])) }
                for warning in feed.warnings { print("\(url):" + warning.description(t)) }
                let added = outcome.summary.added
                print(t("Imported {articles} from {source} ({kind}) into {database}; {skipped} already known and skipped.", [
                    "articles": t.count(added, "{n} article(s)", "{n} article(s)", ["n": plain(added)]), "source": feed.sourceName,
                    "kind": feed.kind.rawValue, "database": config.databaseDescription, "skipped": plain(outcome.summary.skipped),
                ]))
            }
        }

        static func describe(_ failure: ImportArticleFeed.Failure) -> String {
            switch failure {
            case .notAdmin: t("importing feeds needs an admin account")
            case .invalidAddress: t("that is not an http or https address")
            case .unreachable(let reason): t("could not reach the server: {reason}", ["reason": t(reason)])
            case .privateAddress(let reason): t(reason)
            case .notAFeed(let reason, let problems): ([t(reason)] + problems.map { $0.description(t) }).joined(separator: "\n")
            }
        }
    }
}
