import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import QuizCore
import QuizServer
import QuizStore
import Testing

/// A form that fails its token check is offered back only when our own page sent it, and never
/// for authoring, roles, imports or deletions: a forged form must not be one click from working.
@Suite struct CSRFResendTests {
    @Test func aForgedCrossSiteFormIsNotOfferedBack() async throws {
        try await withApp { client, env in
            let browser = TestBrowser(client)
            try await browser.register("boss")
            try await env.store.setRole(.admin, username: "boss")
            _ = try await client.signUp("victim")
            env.time.advance(by: env.config.resolvedCacheLifetime + 0.1)
            // An attacker's page makes the admin's browser post a role change without the token.
            browser.fetchSite = "cross-site"
            let forged = try await browser.post("/manage/users/2/role", [("role", "admin")], csrf: false)
            #expect(forged.status == .forbidden)
            #expect(!forged.contains(#"id="retry-button""#))
            #expect(!forged.contains(#"value="admin""#))
            // Even from our own site, a role change, an import or a deletion is never resent.
            browser.fetchSite = "same-origin"
            for (path, fields) in [("/manage/users/2/role", [("role", "admin")]), ("/manage/import", [("url", "http://127.0.0.1/x")]),
                                   ("/posts/1/delete", []), ("/manage/subjects", [("name", "X")]), ("/users/victim/follow", [])] {
                let page = try await browser.post(path, fields, csrf: false)
                #expect(page.status == .forbidden, "\(path)")
                #expect(!page.contains(#"id="retry-button""#), "\(path)")
            }
            #expect(try await env.store.credentials(username: "victim")?.user.role == .player)
        }
    }

    @Test func everyFormAPlayerFillsInIsOfferedBackFromOurOwnPage() async throws {
        try await withApp { client, _ in
            let browser = TestBrowser(client)
            try await browser.register("ada")
            browser.fetchSite = "same-origin"
            // Each route declares it is resendable where it is registered: this finds a route
            // whose declaration missed it.
            for path in ["/register", "/practice", "/questions/1", "/games", "/games/1/guesses", "/quizzes/1/start",
                         "/play/1/questions/2", "/feed/posts", "/auth/choose-username"] {
                let page = try await browser.post(path, [("text", "kept")], csrf: false)
                #expect(page.status == .forbidden, "\(path)")
                #expect(page.contains(#"id="retry-button""#), "\(path)")
                #expect(page.contains(#"value="kept""#), "\(path)")
            }
        }
    }

    @Test func aRequestThatDoesNotSayWhereItCameFromIsNotOfferedBack() async throws {
        try await withApp { client, _ in
            let browser = TestBrowser(client)
            _ = try await browser.get("/register")
            browser.fetchSite = nil
            let page = try await browser.post("/register", [("first_name", "Forged"), ("username", "forger")], csrf: false)
            #expect(page.status == .forbidden)
            #expect(!page.contains(#"id="retry-button""#))
        }
    }

    @Test func theErrorPageEchoesAtMostAShortForm() async throws {
        try await withApp { client, _ in
            let browser = TestBrowser(client)
            try await browser.register("ada")
            // 200 KB of quotes would be ~1.2 MB escaped: refused to echo, no resend.
            let huge = String(repeating: "\"", count: 200_000)
            let page = try await browser.post("/feed/posts", [("text", huge)], csrf: false)
            #expect(page.status == .forbidden)
            #expect(!page.contains(#"id="retry-button""#))
            #expect(page.html.utf8.count < 20_000)
            // A short post typed on our page is kept for one more try.
            let short = try await browser.post("/feed/posts", [("text", "hello there")], csrf: false)
            #expect(short.contains(#"id="retry-button""#))
            #expect(short.contains(#"value="hello there""#))
        }
    }

    @Test func cookieSignedAPIWritesNeedJSONOrOurOwnPage() async throws {
        try await withApp { client, _ in
            let browser = TestBrowser(client)
            try await browser.register("ada")
            let cookie = try #require(browser.cookies["quizbox_session"])
            // A cross-site form can send text/plain with the cookie: refused.
            var headers = HTTPFields()
            headers[.cookie] = "quizbox_session=\(cookie)"
            headers[.contentType] = "text/plain"
            try await client.execute(uri: "/api/v1/posts", method: .post, headers: headers,
                                     body: .init(string: #"{"text":"forged"}"#)) { response in
                #expect(response.status == .forbidden)
                #expect(String(buffer: response.body).contains("cross_site_request"))
            }
            headers[.contentType] = nil
            try await client.execute(uri: "/api/v1/attempts/1/finish", method: .post, headers: headers) { response in
                #expect(response.status == .forbidden)
            }
            // JSON with the cookie works, as the app's own scripts send it.
            let posted = try await client.call(.post, "/api/v1/posts", cookie: "quizbox_session=\(cookie)", json: ["text": "mine"])
            #expect(posted.status == .created, "\(posted.raw)")
        }
    }
}
