import Foundation
import Hummingbird
import HummingbirdTesting
import QuizCore
import QuizServer
import QuizStore
import Testing

/// A feed server on loopback: an RSS feed, an Atom feed, and ways for a feed to be wrong.
func withFeedServer(_ body: @escaping @Sendable (Int) async throws -> Void) async throws {
    let router = Router()
    router.get("/news.rss") { _, _ in FeedSamples.rss }
    router.get("/blog.atom") { _, _ in FeedSamples.atom }
    router.get("/broken.xml") { _, _ in "<rss version=\"2.0\"><channel>\n<title>Broken</title>\n<item><title>x</item>" }
    router.get("/page.html") { _, _ in "<html><body>Not a feed</body></html>" }
    router.get("/moved") { _, _ in Response(status: .movedPermanently, headers: [.location: "/news.rss"]) }
    let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
    try await app.test(.live) { client in try await body(try #require(client.port)) }
}

enum FeedSamples {
    static let rss = """
        <?xml version="1.0" encoding="UTF-8"?>
        <rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/">
        <channel>
          <title>Loopback News</title>
          <item>
            <title>&lt;script&gt;alert("title")&lt;/script&gt; Moon base opens</title>
            <link>https://news.example.org/moon-base</link>
            <guid isPermaLink="false">loopback-1</guid>
            <pubDate>Sun, 15 Nov 2026 14:30:00 GMT</pubDate>
            <description><![CDATA[<p>Crew of <b>six</b> arrives.</p>]]></description>
            <media:thumbnail url="https://news.example.org/moon.jpg"/>
          </item>
          <item>
            <title>Mars rover wakes up</title>
            <link>https://news.example.org/mars-rover</link>
            <pubDate>Sat, 14 Nov 2026 09:00:00 GMT</pubDate>
          </item>
          <item>
            <title>Bad link</title>
            <link>javascript:alert(1)</link>
          </item>
        </channel>
        </rss>
        """

    static let atom = """
        <?xml version="1.0" encoding="utf-8"?>
        <feed xmlns="http://www.w3.org/2005/Atom">
          <title>Loopback Blog</title>
          <updated>2026-11-10T18:30:02Z</updated>
          <entry>
            <title>Atoms explained</title>
            <link href="/posts/atoms"/>
            <id>tag:loopback,2026:atoms</id>
            <updated>2026-11-10T10:00:00Z</updated>
            <summary>Small things.</summary>
          </entry>
        </feed>
        """
}

@Suite struct ArticlesAPITests {
    func author(_ client: any TestClientProtocol, _ env: TestEnvironment, _ name: String = "writer", role: Role = .author) async throws -> String {
        let token = try await client.signUp(name)
        try await env.store.setRole(role, username: name)
        env.time.advance(by: env.config.resolvedCacheLifetime + 0.1)
        return token
    }

    static var article: [String: Any] { [
        "title": "<script>alert(1)</script> Big news", "summary": "It happened.", "sourceName": "Example News",
        "url": "https://example.org/big-news", "imageUrl": "https://example.org/big.jpg", "publishedAt": "2026-11-20T10:00:00Z",
    ] }

    @Test func authorsWriteArticlesAndEveryoneSignedInReadsThem() async throws {
        try await withApp { client, env in
            let writer = try await author(client, env)
            let reader = try await client.signUp("reader")
            let created = try await client.call(.post, "/api/v1/articles", token: writer, json: Self.article)
            #expect(created.status == .created, "\(created.raw)")
            let id = try #require(created["id"] as? Int)
            #expect(created["title"] as? String == "<script>alert(1)</script> Big news")
            #expect(created["publishedAt"] as? String == "2026-11-20T10:00:00Z")

            let list = try await client.call(.get, "/api/v1/articles", token: reader)
            #expect(list["total"] as? Int == 1)
            #expect((list["articles"] as? [[String: Any]])?.first?["url"] as? String == "https://example.org/big-news")
            #expect(try await client.call(.get, "/api/v1/articles/\(id)", token: reader)["sourceName"] as? String == "Example News")
            #expect(try await client.call(.get, "/api/v1/articles").status == .unauthorized)

            var changed = Self.article
            changed["title"] = "Big news, updated"
            changed["quizId"] = try await client.firstQuiz().id
            let updated = try await client.call(.put, "/api/v1/articles/\(id)", token: writer, json: changed)
            #expect(updated.status == .ok, "\(updated.raw)")
            #expect(updated["quizId"] as? Int == changed["quizId"] as? Int)

            let duplicate = try await client.call(.post, "/api/v1/articles", token: writer, json: Self.article)
            #expect(duplicate.status == .conflict)
            #expect(duplicate.errorCode == "duplicate_article")

            #expect(try await client.call(.delete, "/api/v1/articles/\(id)", token: writer).status == .noContent)
            #expect(try await client.call(.get, "/api/v1/articles/\(id)", token: reader).status == .notFound)
        }
    }

    @Test func playersCannotWriteArticles() async throws {
        try await withApp { client, env in
            let writer = try await author(client, env)
            let id = try #require(try await client.call(.post, "/api/v1/articles", token: writer, json: Self.article)["id"] as? Int)
            let player = try await client.signUp("player")
            #expect(try await client.call(.post, "/api/v1/articles", token: player, json: Self.article).errorCode == "forbidden")
            #expect(try await client.call(.put, "/api/v1/articles/\(id)", token: player, json: Self.article).status == .forbidden)
            #expect(try await client.call(.delete, "/api/v1/articles/\(id)", token: player).status == .forbidden)
            #expect(try await client.call(.post, "/api/v1/articles/import", token: player, json: ["url": "http://127.0.0.1:1/x"]).status == .forbidden)
            #expect(try await client.call(.post, "/api/v1/articles/import", token: writer, json: ["url": "http://127.0.0.1:1/x"]).status == .forbidden,
                    "importing feeds is for admins")
            #expect(try await env.store.articles(offset: 0, limit: 10).total == 1)
        }
    }

    @Test(arguments: ["javascript:alert(1)", "data:text/html,<script>alert(1)</script>", "/relative", "ftp://example.org/x", "http:/x"])
    func onlyHTTPAddressesAreStored(url: String) async throws {
        try await withApp { client, env in
            let writer = try await author(client, env)
            var body = Self.article
            body["url"] = url
            let refused = try await client.call(.post, "/api/v1/articles", token: writer, json: body)
            #expect(refused.status == .unprocessableContent)
            #expect(refused.errorCode == "invalid_article")
            #expect(refused.errorField == "url")
            body["url"] = "https://example.org/ok"
            body["imageUrl"] = url
            #expect(try await client.call(.post, "/api/v1/articles", token: writer, json: body).errorField == "imageUrl")
            #expect(try await env.store.articles(offset: 0, limit: 10).total == 0)
        }
    }

    @Test func everyProblemIsListed() async throws {
        try await withApp { client, env in
            let writer = try await author(client, env)
            let refused = try await client.call(.post, "/api/v1/articles", token: writer, json: [
                "title": "", "sourceName": String(repeating: "s", count: 201), "url": "javascript:void(0)",
            ])
            #expect(refused.status == .unprocessableContent)
            let problems = (refused.json["error"] as? [String: Any])?["problems"] as? [[String: Any]] ?? []
            #expect(problems.compactMap { $0["path"] as? String } == ["title", "sourceName", "url"])
            let badQuiz = try await client.call(.post, "/api/v1/articles", token: writer, json: Self.article.merging(["quizId": 999_999]) { $1 })
            #expect(badQuiz.errorField == "quizId")
        }
    }

    @Test func readingRecordsTheReadAndReturnsTheURL() async throws {
        try await withApp { client, env in
            let writer = try await author(client, env)
            let id = try #require(try await client.call(.post, "/api/v1/articles", token: writer, json: Self.article)["id"] as? Int)
            let reader = try await client.signUp("reader")
            let read = try await client.call(.post, "/api/v1/articles/\(id)/read", token: reader)
            #expect(read.status == .ok)
            #expect(read["url"] as? String == "https://example.org/big-news")
            #expect(try await client.call(.post, "/api/v1/articles/\(id)/read", token: reader).status == .ok, "reading again is fine")
            let readerId = try #require(try await env.store.credentials(username: "reader")?.user.id)
            #expect(try await env.store.articlesRead(userId: readerId, limit: 10).map(\.article.id) == [Int64(id)])
            #expect(try await client.call(.post, "/api/v1/articles/999/read", token: reader).status == .notFound)
        }
    }

    @Test func anAdminImportsAFeedAndImportingAgainAddsNothing() async throws {
        try await withFeedServer { port in
            try await withApp { client, env in
                let admin = try await author(client, env, "boss", role: .admin)
                let first = try await client.call(.post, "/api/v1/articles/import", token: admin, json: ["url": "http://127.0.0.1:\(port)/moved"])
                #expect(first.status == .ok, "\(first.raw)")
                #expect(first["feedType"] as? String == "rss")
                #expect(first["sourceName"] as? String == "Loopback News")
                #expect(first["added"] as? Int == 2)
                #expect(first["skipped"] as? Int == 0)
                let problems = first["problems"] as? [[String: Any]] ?? []
                #expect(problems.count == 1)
                #expect(problems.first?["line"] as? Int == 18)

                let again = try await client.call(.post, "/api/v1/articles/import", token: admin, json: ["url": "http://127.0.0.1:\(port)/news.rss"])
                #expect(again["added"] as? Int == 0)
                #expect(again["skipped"] as? Int == 2)

                let atom = try await client.call(.post, "/api/v1/articles/import", token: admin, json: ["url": "http://127.0.0.1:\(port)/blog.atom"])
                #expect(atom["added"] as? Int == 1)
                let page = try await env.store.articles(offset: 0, limit: 10)
                #expect(page.articles.map(\.url) == ["https://news.example.org/moon-base", "https://news.example.org/mars-rover",
                                                     "http://127.0.0.1:\(port)/posts/atoms"])
            }
        }
    }

    @Test func feedsThatCannotBeReadOrReachedAreClearErrors() async throws {
        try await withFeedServer { port in
            try await withApp { client, env in
                let admin = try await author(client, env, "boss", role: .admin)
                let broken = try await client.call(.post, "/api/v1/articles/import", token: admin, json: ["url": "http://127.0.0.1:\(port)/broken.xml"])
                #expect(broken.status == .unprocessableContent)
                #expect(broken.errorCode == "invalid_feed")
                let problems = (broken.json["error"] as? [String: Any])?["problems"] as? [[String: Any]] ?? []
                #expect(problems.first?["line"] as? Int == 3)
                let html = try await client.call(.post, "/api/v1/articles/import", token: admin, json: ["url": "http://127.0.0.1:\(port)/page.html"])
                #expect(html.errorCode == "invalid_feed")
                let missing = try await client.call(.post, "/api/v1/articles/import", token: admin, json: ["url": "http://127.0.0.1:\(port)/nothing"])
                #expect(missing.errorCode == "invalid_feed")
                #expect(missing.raw.contains("404"))
                let unreachable = try await client.call(.post, "/api/v1/articles/import", token: admin, json: ["url": "http://127.0.0.1:1/feed"])
                #expect(unreachable.status == .badGateway)
                #expect(unreachable.errorCode == "remote_unreachable")
                let notHTTP = try await client.call(.post, "/api/v1/articles/import", token: admin, json: ["url": "file:///etc/passwd"])
                #expect(notHTTP.errorCode == "invalid_url")
                #expect(try await env.store.articles(offset: 0, limit: 10).total == 0)
            }
        }
    }

    @Test func privateAddressesAreRefusedUnlessConfigured() async throws {
        try await withApp(configure: { $0.remoteImportAllowPrivate = false }) { client, env in
            let admin = try await author(client, env, "boss", role: .admin)
            let refused = try await client.call(.post, "/api/v1/articles/import", token: admin, json: ["url": "http://169.254.169.254/feed"])
            #expect(refused.status == .unprocessableContent)
            #expect(refused.errorCode == "private_address")
        }
    }
}
