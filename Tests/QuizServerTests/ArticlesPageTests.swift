import Foundation
import HTTPTypes
import HummingbirdTesting
import QuizCore
import QuizServer
import QuizStore
import Testing

@Suite struct ArticlesPageTests {
    func signedIn(_ client: any TestClientProtocol, _ env: TestEnvironment, _ name: String, role: Role) async throws -> TestBrowser {
        let browser = TestBrowser(client)
        try await browser.register(name)
        if role != .player {
            try await env.store.setRole(role, username: name)
            env.time.advance(by: env.config.resolvedCacheLifetime + 0.1)
        }
        return browser
    }

    func addArticle(_ env: TestEnvironment, title: String = "<script>alert('t')</script> Headline", quizId: Int64? = nil) async throws -> Int64 {
        try await env.store.createArticle(
            ArticleDraft(title: title, summary: "<img src=x onerror=alert(1)> summary", sourceName: "<b>Source</b>",
                         url: "https://example.org/story?a=1&b=2", imageURL: "https://example.org/pic.jpg",
                         publishedAt: Date(timeIntervalSince1970: 1_794_749_400), quizId: quizId),
            by: nil, at: env.time.now())
    }

    @Test func theNewsListEscapesWhatFeedsAndAuthorsWrote() async throws {
        try await withApp { client, env in
            let id = try await addArticle(env)
            let reader = try await signedIn(client, env, "reader", role: .player)
            let page = try await reader.get("/articles")
            #expect(page.status == .ok)
            #expect(page.contains("&lt;script&gt;alert(&#39;t&#39;)&lt;/script&gt; Headline") || page.contains("&lt;script&gt;alert("))
            #expect(!page.contains("<script>alert"))
            #expect(!page.contains("<img src=x"))
            #expect(!page.contains("<b>Source</b>"))
            #expect(page.contains(#"href="/articles/\#(id)/read""#))
            #expect(page.contains("15 Nov 2026"))
            #expect(page.contains(#"id="tab-articles""#))
        }
    }

    @Test func readingGoesThroughQuizboxAndShowsOnTheProfile() async throws {
        try await withApp { client, env in
            let id = try await addArticle(env)
            let reader = try await signedIn(client, env, "reader", role: .player)
            #expect(try await reader.get("/profile").contains("None yet"))
            let read = try await reader.get("/articles/\(id)/read")
            #expect(read.status == .seeOther)
            #expect(read.location == "https://example.org/story?a=1&b=2")
            let profile = try await reader.get("/profile")
            #expect(profile.contains(#"id="articles-read""#))
            #expect(profile.contains("&lt;script&gt;"))
            #expect(!profile.contains("None yet"))
            #expect(try await reader.get("/articles/999/read").status == .notFound)
        }
    }

    @Test func signedOutReadersLogInFirst() async throws {
        try await withApp { client, env in
            let id = try await addArticle(env)
            let anonymous = TestBrowser(client)
            let page = try await anonymous.get("/articles/\(id)/read")
            #expect(page.status == .seeOther)
            #expect(page.location?.hasPrefix("/login?next=") == true)
            #expect(try await anonymous.get("/articles").location?.hasPrefix("/login") == true)
        }
    }

    @Test func articleQuizzesAreListedWithTheRest() async throws {
        try await withApp { client, env in
            let quizId = try #require(try await env.store.allQuizzes().first?.quiz.id)
            _ = try await addArticle(env, title: "Planets & <moons>", quizId: quizId)
            let reader = try await signedIn(client, env, "reader", role: .player)
            let quizzes = try await reader.get("/quizzes")
            #expect(quizzes.contains("About: Planets &amp; &lt;moons&gt;"))
            #expect(quizzes.contains("Planets</a>"))
            #expect(try await reader.get("/articles").contains(#"href="/quizzes/\#(quizId)""#))
        }
    }

    @Test func anAuthorCreatesEditsAndDeletesAnArticle() async throws {
        try await withApp { client, env in
            let author = try await signedIn(client, env, "writer", role: .author)
            let manage = try await author.get("/manage/articles")
            #expect(manage.status == .ok)
            #expect(!manage.contains(#"id="feed-import-form""#), "importing is for admins")
            let quizId = try #require(try await env.store.allQuizzes().first?.quiz.id)
            let created = try await author.post("/manage/articles", [
                ("title", "Comet seen"), ("summary", "Bright."), ("source_name", "Sky News"), ("url", "https://example.org/comet"),
                ("image_url", ""), ("published_at", "2026-11-20T09:30"), ("quiz_id", String(quizId)),
            ])
            #expect(created.status == .seeOther, "\(created.html)")
            let location = try #require(created.location)
            let edit = try await author.follow(created)
            #expect(edit.contains("Article added."))
            #expect(edit.contains(#"value="2026-11-20T09:30""#))
            let id = try #require(try await env.store.articles(offset: 0, limit: 1).articles.first?.id)
            #expect(try await env.store.article(id: id)?.quizId == quizId)
            #expect(try await env.store.article(id: id)?.publishedAt == Date(timeIntervalSince1970: 1_795_167_000))

            let saved = try await author.post(location.components(separatedBy: "?")[0], [
                ("title", "Comet seen again"), ("summary", ""), ("source_name", "Sky News"), ("url", "https://example.org/comet"),
                ("image_url", ""), ("published_at", "2026-11-20T09:30"), ("quiz_id", ""),
            ])
            #expect(saved.status == .seeOther)
            #expect(try await env.store.article(id: id)?.title == "Comet seen again")
            #expect(try await env.store.article(id: id)?.quizId == nil)

            #expect(try await author.post("/manage/articles/\(id)/delete", []).status == .seeOther)
            #expect(try await env.store.article(id: id) == nil)
        }
    }

    @Test func aFormWithMistakesIsShownAgainWithEveryMessage() async throws {
        try await withApp { client, env in
            let author = try await signedIn(client, env, "writer", role: .author)
            let page = try await author.post("/manage/articles", [
                ("title", "<script>x</script>"), ("summary", ""), ("source_name", ""), ("url", "javascript:alert(1)"),
                ("image_url", "data:image/png;base64,AA"), ("published_at", "yesterday"), ("quiz_id", ""),
            ])
            #expect(page.status == .unprocessableContent)
            #expect(page.contains(#"id="error-source_name""#))
            #expect(page.contains(#"id="error-url""#))
            #expect(page.contains(#"id="error-image_url""#))
            #expect(page.contains(#"id="error-published_at""#))
            #expect(page.contains(#"value="&lt;script&gt;x&lt;/script&gt;""#))
            #expect(!page.contains("<script>x"))
            #expect(try await env.store.articles(offset: 0, limit: 10).total == 0)
        }
    }

    @Test func playersCannotWriteArticlesThroughThePages() async throws {
        try await withApp { client, env in
            let id = try await addArticle(env)
            let player = try await signedIn(client, env, "player", role: .player)
            #expect(try await player.get("/manage/articles").status == .forbidden)
            #expect(try await player.get("/manage/articles/\(id)").status == .forbidden)
            #expect(try await player.post("/manage/articles", [("title", "x"), ("source_name", "y"), ("url", "https://e.org/")]).status == .forbidden)
            #expect(try await player.post("/manage/articles/\(id)/delete", []).status == .forbidden)
            #expect(try await player.post("/manage/articles/import", [("feed_url", "https://e.org/feed")]).status == .forbidden)
            #expect(try await env.store.articles(offset: 0, limit: 10).total == 1)
            #expect(try await env.store.article(id: id) != nil)
        }
    }

    @Test func anAdminImportsAFeedFromThePage() async throws {
        try await withFeedServer { port in
            try await withApp { client, env in
                let admin = try await signedIn(client, env, "boss", role: .admin)
                let author = try await signedIn(client, env, "writer", role: .author)
                #expect(try await author.post("/manage/articles/import", [("feed_url", "http://127.0.0.1:\(port)/news.rss")]).status == .forbidden)
                #expect(try await admin.get("/manage/articles").contains(#"id="feed-import-form""#))
                let done = try await admin.post("/manage/articles/import", [("feed_url", "http://127.0.0.1:\(port)/news.rss")])
                #expect(done.status == .ok)
                #expect(done.contains("Loopback News: 2 articles added, 0 already known and skipped."))
                #expect(done.contains(#"id="feed-import-problems""#))
                #expect(done.contains("line 18"))
                #expect(!done.contains("<script>alert(\"title\")"))
                let again = try await admin.post("/manage/articles/import", [("feed_url", "http://127.0.0.1:\(port)/news.rss")])
                #expect(again.contains("0 articles added, 2 already known and skipped."))
                let broken = try await admin.post("/manage/articles/import", [("feed_url", "http://127.0.0.1:\(port)/broken.xml")])
                #expect(broken.status == .unprocessableContent)
                #expect(broken.contains("Nothing was imported."))
                #expect(broken.contains("line 3"))
                let bad = try await admin.post("/manage/articles/import", [("feed_url", "javascript:alert(1)")])
                #expect(bad.status == .unprocessableContent)
                #expect(try await env.store.articles(offset: 0, limit: 10).total == 2)
            }
        }
    }
}
