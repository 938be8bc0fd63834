import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import QuizCore
import QuizServer
import QuizStore
import SQLKit
import Testing

extension TestBrowser {
    /// Sends the feed's post form as a browser does: multipart, the image under "image".
    func postToFeed(_ text: String, image: (name: String, bytes: [UInt8])?) async throws -> Page {
        try await postMultipart("/feed/posts", [("text", text)], file: image, fileField: "image")
    }
}

@Suite struct SocialPageTests {
    @Test func postsAreEscapedAndImagesShownInTheFeed() async throws {
        try await withApp { client, _ in
            let browser = TestBrowser(client)
            try await browser.register("ada")
            let feed = try await browser.get("/feed")
            #expect(feed.status == .ok)
            #expect(feed.contains(#"id="tab-feed" href="/feed" aria-current="page""#))
            #expect(feed.contains(#"enctype="multipart/form-data""#))
            #expect(feed.contains(#"<script src="/static/feed.js" defer></script>"#))
            let posted = try await browser.postToFeed("<script>alert('x')</script>", image: ("photo.png", tinyPNG))
            #expect(posted.status == .seeOther, "\(posted.html)")
            let after = try await browser.get("/feed")
            #expect(!after.contains("<script>alert"))
            #expect(after.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;") || after.contains("&lt;script&gt;alert("))
            #expect(after.contains(#"<img class="post-image" src="/images/"#))
            #expect(after.html.utf8.count < 60_000)
        }
    }

    @Test func fakeAndOversizedImagesAreRefusedWithTheFormKept() async throws {
        try await withApp { client, _ in
            let browser = TestBrowser(client)
            try await browser.register("ada")
            _ = try await browser.get("/feed")
            let fake = try await browser.postToFeed("my holiday", image: ("photo.png", Array("I am only text".utf8)))
            #expect(fake.status == .unsupportedMediaType)
            #expect(fake.contains("not a PNG, JPEG or WebP image"))
            #expect(fake.contains("my holiday</textarea>"))
            let huge = try await browser.postToFeed("big", image: ("big.png", tinyPNG + [UInt8](repeating: 0, count: 6_000_000)))
            #expect(huge.status == .contentTooLarge)
            #expect(huge.contains("larger than the limit of 5 MiB"))
            let empty = try await browser.postToFeed("", image: nil)
            #expect(empty.status == .unprocessableContent)
            // Every mistake at once: text over the limit and a file that is no picture.
            let both = try await browser.postToFeed(String(repeating: "x", count: 2_001), image: ("photo.png", Array("text".utf8)))
            #expect(both.contains(#"id="error-post-text""#))
            let imageError = try #require(both.html.range(of: #"id="error-post-image">[^<]*"#, options: .regularExpression))
            #expect(both.html[imageError].contains("not a PNG, JPEG or WebP image"))
            #expect(both.contains("Please fix the marked fields; nothing was posted."))
            #expect(both.html.components(separatedBy: #"aria-invalid="true""#).count == 3)
            // A good picture with a text too long: the picture must be chosen again, and the page says so.
            let again = try await browser.postToFeed(String(repeating: "x", count: 2_001), image: ("photo.png", tinyPNG))
            #expect(again.contains(#"id="error-post-image">Choose the image again"#))
            #expect(try await browser.get("/feed").contains(#"id="feed-empty""#))
        }
    }

    @Test func followingFromAUserPageFillsTheFeedWithNewsCardsAndAMoreLink() async throws {
        try await withApp { client, env in
            let bob = TestBrowser(client)
            try await bob.register("bob", first: "Bob", last: "<b>Builder</b>")
            _ = try await bob.get("/feed")
            for i in 0..<25 {
                _ = try await bob.postToFeed("bob says \(i)", image: nil)
                env.time.advance(by: 7)  // within the posts-per-minute limit
            }
            try await env.store.database.transaction { db in
                try await db.raw("""
                    INSERT INTO articles (title, summary, source_name, url, published_at, dedupe_key, quiz_id, created_at)
                    VALUES ('Comet <seen>', 'A bright comet.', 'Sky News', 'https://example.org/comet', 1, 'comet', 1, 0)
                    """).run()
            }
            let ada = TestBrowser(client)
            try await ada.register("ada")
            let found = try await ada.get("/people?q=build")
            #expect(found.contains(#"href="/users/bob""#))
            #expect(found.contains("&lt;b&gt;Builder&lt;/b&gt;"))
            // Followed from the results, back on the same search, which now offers Unfollow.
            #expect(found.contains(#"<form method="post" action="/users/bob/follow" class="follow-inline">"#))
            let fromList = try await ada.post("/users/bob/follow", [("next", "/people?q=build")])
            #expect(fromList.location == "/people?q=build")
            let again = try await ada.follow(fromList)
            #expect(again.contains(#"action="/users/bob/unfollow""#) && !again.contains(#"action="/users/bob/follow""#))
            #expect(try await ada.post("/users/bob/unfollow", [("next", "https://evil.example/")]).location == "/home", "redirects stay on the site")
            #expect(!(try await ada.get("/people?q=ada")).contains(#"action="/users/ada/follow""#), "no button for yourself")
            let page = try await ada.get("/users/bob")
            #expect(page.contains(#"id="user-followers">0 followers"#))
            #expect(page.contains("bob says 24"))
            let followed = try await ada.follow(try await ada.post("/users/bob/follow", []))
            #expect(followed.contains(#"id="user-followers">1 follower<"#))
            #expect(followed.contains(#"id="unfollow-button""#))
            let me = try await ada.get("/users/ada")
            #expect(!me.contains(#"id="follow-button""#))
            #expect(try await ada.post("/users/ada/follow", []).status == .unprocessableContent)
            let feed = try await ada.get("/feed")
            #expect(feed.contains("bob says 24") && !feed.contains("bob says 4<"))
            #expect(feed.contains(#"class="news-card""#))
            #expect(feed.contains("Comet &lt;seen&gt;"))
            #expect(feed.contains(#"href="/quizzes/1">Take the quiz</a>"#))
            #expect(feed.contains(#"href="/articles/1/read""#))
            #expect(!feed.contains(#"id="delete-post-"#))
            let more = try #require(feed.html.range(of: #"id="feed-more" href="([^"]+)""#, options: .regularExpression))
            let next = String(feed.html[more]).components(separatedBy: "href=\"")[1].dropLast()
            let second = try await ada.get(String(next))
            #expect(second.contains("bob says 4<") && !second.contains("bob says 24"))
            let fragment = try await ada.get(String(next) + "&fragment=1")
            #expect(fragment.contains("bob says 4<") && !fragment.contains("<html"))
            #expect(fragment.headers[HTTPField.Name("Quizbox-Next-Page")!] == nil)
        }
    }

    @Test func onlyTheAuthorSeesAndUsesTheDeleteButton() async throws {
        try await withApp { client, env in
            let ada = TestBrowser(client)
            try await ada.register("ada")
            _ = try await ada.get("/feed")
            _ = try await ada.postToFeed("delete me", image: nil)
            let feed = try await ada.get("/feed")
            let id = try #require(try await env.store.feed(userId: 1, after: nil, limit: 1).items.first.flatMap { item -> Int64? in
                if case .post(let post) = item { post.id } else { nil }
            })
            #expect(feed.contains(#"id="delete-post-\#(id)""#))
            let bob = TestBrowser(client)
            try await bob.register("bob")
            _ = try await bob.get("/feed")
            #expect(try await bob.post("/posts/\(id)/delete", [("next", "/feed")]).status == .forbidden)
            let deleted = try await ada.post("/posts/\(id)/delete", [("next", "/feed")])
            #expect(deleted.status == .seeOther && deleted.location == "/feed")
            #expect(!(try await ada.get("/feed")).contains("delete me"))
        }
    }
}

