import Foundation
import QuizCore
import QuizFormats
import QuizStore
import QuizUseCases
import Testing

/// Reading, writing and importing news articles, on the use cases themselves.
@Suite struct ArticlesTests {
    static func fields(_ title: String = "Comet seen", url: String = "https://example.org/comet", quizId: Int64? = nil) -> ArticleAuthoring.Fields {
        ArticleAuthoring.Fields(title: title, summary: "Bright.", sourceName: "Sky News", url: url, imageURL: "", quizId: quizId)
    }

    func authoring(_ env: UseCaseEnvironment) -> ArticleAuthoring { ArticleAuthoring(store: env.store, time: env.time) }

    /// A quiz to link articles to, a draft until `published`.
    func quiz(_ env: UseCaseEnvironment, published: Bool) async throws -> Int64 {
        let subject = try await env.store.create(.subject, parent: nil, name: "Space", description: "")
        let topic = try await env.store.create(.topic, parent: subject, name: "Comets", description: "")
        let quiz = try await env.store.create(.quiz, parent: topic, name: "Comets quiz", description: "")
        if published { try await env.store.setPublished(true, quizId: quiz) }
        return quiz
    }

    // MARK: Authoring

    @Test func onlyAuthorsAndAdminsWriteArticles() async throws {
        try await withUseCases { env in
            let player = try await env.register("player")
            let author = try await env.register("author", role: .author)
            let admin = try await env.register("admin", role: .admin)
            await #expect(throws: ArticleAuthoring.Failure.notAuthor) { try await authoring(env).create(Self.fields(), by: player) }
            let article = try await authoring(env).create(Self.fields(), by: author)
            await #expect(throws: ArticleAuthoring.Failure.notAuthor) {
                try await authoring(env).update(id: article.id, Self.fields("Changed"), by: player)
            }
            await #expect(throws: ArticleAuthoring.Failure.notAuthor) { try await authoring(env).delete(id: article.id, by: player) }
            #expect(try await authoring(env).update(id: article.id, Self.fields("Changed"), by: admin).title == "Changed")
            try await authoring(env).delete(id: article.id, by: admin)
            await #expect(throws: ArticleAuthoring.Failure.notFound) { try await authoring(env).delete(id: article.id, by: admin) }
            await #expect(throws: ArticleAuthoring.Failure.notFound) {
                try await authoring(env).update(id: article.id, Self.fields(), by: admin)
            }
        }
    }

    @Test func everyBrokenRuleIsReportedAndNothingIsStored() async throws {
        try await withUseCases { env in
            let author = try await env.register("author", role: .author)
            let broken = ArticleAuthoring.Fields(title: " ", summary: "", sourceName: String(repeating: "s", count: 201),
                                                 url: "javascript:alert(1)", imageURL: "data:image/png;base64,AA")
            do {
                _ = try await authoring(env).create(broken, by: author)
                Issue.record("a broken article was stored")
            } catch ArticleAuthoring.Failure.invalid(let problems) {
                #expect(problems.map(\.field) == ["title", "sourceName", "url", "imageUrl"])
            }
            #expect(authoring(env).problems(broken).count == 4, "the same rules, asked before storing")
            #expect(try await env.store.articles(offset: 0, limit: 10).total == 0)
        }
    }

    @Test func aDuplicateAddressOrAMissingQuizIsRefused() async throws {
        try await withUseCases { env in
            let author = try await env.register("author", role: .author)
            let first = try await authoring(env).create(Self.fields(), by: author)
            await #expect(throws: ArticleAuthoring.Failure.duplicate) { try await authoring(env).create(Self.fields("Again"), by: author) }
            await #expect(throws: ArticleAuthoring.Failure.quizNotFound) {
                try await authoring(env).update(id: first.id, Self.fields(quizId: 999_999), by: author)
            }
        }
    }

    @Test func noPublicationTimeMeansNowAndAnEmptyImageAddressMeansNone() async throws {
        try await withUseCases { env in
            let author = try await env.register("author", role: .author)
            let article = try await authoring(env).create(Self.fields(), by: author)
            #expect(article.imageURL == nil)
            #expect(article.publishedAt == env.time.now())
            #expect(article.createdBy == author.id)
            var dated = Self.fields("Dated", url: "https://example.org/dated")
            dated.publishedAt = Date(timeIntervalSince1970: 1_795_167_000)
            #expect(try await authoring(env).create(dated, by: author).publishedAt == Date(timeIntervalSince1970: 1_795_167_000))
        }
    }

    @Test func authorsChooseAmongEveryQuizDraftsIncluded() async throws {
        try await withUseCases { env in
            let author = try await env.register("author", role: .author)
            let draft = try await quiz(env, published: false)
            let choices = try await authoring(env).quizChoices(by: author)
            #expect(choices.map(\.id) == [draft])
            #expect(choices.first.map { [$0.subject, $0.topic, $0.title] } == ["Space", "Comets", "Comets quiz"])
            #expect(choices.first?.isPublished == false)
        }
    }

    // MARK: Reading

    @Test func theNewsOffersAQuizOnlyOnceItCanBeTaken() async throws {
        try await withUseCases { env in
            let author = try await env.register("author", role: .author)
            let draft = try await quiz(env, published: false)
            _ = try await authoring(env).create(Self.fields(quizId: draft), by: author)
            let articles = Articles(store: env.store, time: env.time)
            #expect(try await articles.news(1).articles.first?.quizId == nil)
            #expect(try await articles.shelf(1).articles.first?.quizId == draft, "authors see the link")
            try await env.store.setPublished(true, quizId: draft)
            #expect(try await articles.news(1).articles.first?.quizId == draft)
        }
    }

    @Test func theListIsPagedByNumberWithinItsBounds() async throws {
        try await withUseCases { env in
            let author = try await env.register("author", role: .author)
            for n in 0..<(Articles.perPage + 1) {
                var fields = Self.fields("News \(n)", url: "https://example.org/\(n)")
                fields.publishedAt = Date(timeIntervalSince1970: TimeInterval(1_000_000 + n))
                _ = try await authoring(env).create(fields, by: author)
            }
            let articles = Articles(store: env.store, time: env.time)
            let first = try await articles.shelf(-3)
            #expect(first.number == 1 && first.pageCount == 2 && first.articles.count == Articles.perPage)
            #expect(first.articles.first?.title == "News \(Articles.perPage)", "newest first")
            #expect(try await articles.shelf(2).articles.map(\.title) == ["News 0"])
            #expect(try await articles.shelf(Int.max).number == 100_000)
            #expect(try await articles.shelf(Int.max).articles.isEmpty)
        }
    }

    @Test func readingRecordsTheReadOnceAndGivesTheAddress() async throws {
        try await withUseCases { env in
            let author = try await env.register("author", role: .author)
            let reader = try await env.register("reader")
            let article = try await authoring(env).create(Self.fields(), by: author)
            let articles = Articles(store: env.store, time: env.time)
            let read = try await articles.read(articleId: article.id, userId: reader.id)
            #expect(read.article.url == "https://example.org/comet")
            #expect(read.readAt == env.time.now())
            env.time.advance(by: 60)
            _ = try await articles.read(articleId: article.id, userId: reader.id)
            #expect(try await env.store.articlesRead(userId: reader.id, limit: 10).map(\.readAt) == [read.readAt], "the first read counts")
            await #expect(throws: Articles.Failure.notFound) { try await articles.read(articleId: 999, userId: reader.id) }
            await #expect(throws: Articles.Failure.notFound) { try await articles.article(id: 999) }
        }
    }

    // MARK: Importing feeds

    /// Serves feeds from memory, or fails as it is told; counts the loads.
    final class FakeLoader: ArticleFeedLoader, @unchecked Sendable {
        var feeds: [String: String] = [:]
        var failure: ArticleFeedLoadError?
        private(set) var loads = 0

        func loadFeed(_ url: URL, now: Date) async throws(ArticleFeedLoadError) -> NewsFeedReader.Feed {
            loads += 1
            if let failure { throw failure }
            guard let text = feeds[url.absoluteString] else { throw .unreadable("\(url) answered 404", problems: []) }
            do {
                return try NewsFeedReader(feedURL: url, now: now).read(Data(text.utf8))
            } catch {
                throw .unreadable("\(url) is not an RSS or Atom feed Quizbox can read", problems: error.problems)
            }
        }
    }

    static let rss = """
        <?xml version="1.0" encoding="UTF-8"?>
        <rss version="2.0"><channel><title>Loopback News</title>
        <item><title>Moon base opens</title><link>https://news.example.org/moon</link><guid>moon</guid></item>
        <item><title>Mars rover wakes up</title><link>https://news.example.org/mars</link></item>
        <item><title>No link</title></item>
        </channel></rss>
        """

    @Test func onlyAdminsImportFeedsAndImportingAgainAddsNothing() async throws {
        try await withUseCases { env in
            let loader = FakeLoader()
            loader.feeds["https://news.example.org/feed.xml"] = Self.rss
            let importFeed = ImportArticleFeed(store: env.store, loader: loader, time: env.time)
            let author = try await env.register("author", role: .author)
            let admin = try await env.register("admin", role: .admin)
            await #expect(throws: ImportArticleFeed.Failure.notAdmin) {
                try await importFeed(address: "https://news.example.org/feed.xml", by: .user(author))
            }
            #expect(loader.loads == 0, "nothing is fetched for someone who may not import")
            let first = try await importFeed(address: "https://news.example.org/feed.xml", by: .user(admin))
            #expect(first.feed.sourceName == "Loopback News")
            #expect(first.summary == ArticleImportSummary(added: 2, skipped: 0))
            #expect(first.feed.skipped.first?.line == 5, "the item without a link is left out, with its line")
            #expect(try await env.store.articles(offset: 0, limit: 10).articles.allSatisfy { $0.createdBy == admin.id })
            let again = try await importFeed(address: "https://news.example.org/feed.xml", by: .commandLine)
            #expect(again.summary == ArticleImportSummary(added: 0, skipped: 2))
        }
    }

    @Test(arguments: ["javascript:alert(1)", "file:///etc/passwd", "/relative", "https://" + String(repeating: "a", count: 2_000) + ".org/"])
    func onlyWebAddressesAreFetched(address: String) async throws {
        try await withUseCases { env in
            let loader = FakeLoader()
            let admin = try await env.register("admin", role: .admin)
            await #expect(throws: ImportArticleFeed.Failure.invalidAddress) {
                try await ImportArticleFeed(store: env.store, loader: loader, time: env.time)(address: address, by: .user(admin))
            }
            #expect(loader.loads == 0)
        }
    }

    @Test func aFeedThatCannotBeLoadedOrReadStoresNothing() async throws {
        try await withUseCases { env in
            let loader = FakeLoader()
            loader.feeds["https://news.example.org/broken.xml"] = "<rss version=\"2.0\"><channel>\n<title>Broken</title>\n<item><title>x</item>"
            let importFeed = ImportArticleFeed(store: env.store, loader: loader, time: env.time)
            do {
                _ = try await importFeed(address: "https://news.example.org/broken.xml", by: .commandLine)
                Issue.record("a broken feed was imported")
            } catch ImportArticleFeed.Failure.notAFeed(let reason, let problems) {
                #expect(reason.contains("not an RSS or Atom feed"))
                #expect(problems.first?.line == 3)
            }
            loader.failure = .unreachable("connection refused")
            await #expect(throws: ImportArticleFeed.Failure.unreachable("connection refused")) {
                try await importFeed(address: "https://news.example.org/feed.xml", by: .commandLine)
            }
            loader.failure = .privateAddress("127.0.0.1 is on this machine")
            await #expect(throws: ImportArticleFeed.Failure.privateAddress("127.0.0.1 is on this machine")) {
                try await importFeed(address: "http://localhost/feed.xml", by: .commandLine)
            }
            #expect(try await env.store.articles(offset: 0, limit: 10).total == 0)
        }
    }
}
