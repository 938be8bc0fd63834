import AsyncHTTPClient
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import NIOHTTP1
import QuizCore
import QuizServer
import QuizStore
import QuizUseCases
import Testing

/// Sign in with an external provider, end to end: Quizbox through its router, the fake provider
/// over real HTTP on loopback, the browser's hop to the provider made with a real HTTP client.
@Suite struct ExternalSignInTests {
    static let publicURL = "http://quizbox.test"

    func withFlow(
        providers: @escaping @Sendable (FakeOAuthProvider) -> [OAuthProviderConfig] = { [$0.oidcConfig()] },
        _ body: @escaping @Sendable (FakeOAuthProvider, any TestClientProtocol, TestEnvironment) async throws -> Void
    ) async throws {
        let fake = try FakeOAuthProvider(time: ManualTimeSource())
        try await fake.run {
            try await withApp(configure: { config in
                config.publicURL = Self.publicURL
                config.oauthProviders = providers(fake)
            }) { client, env in try await body(fake, client, env) }
        }
    }

    /// What a browser does at the provider: follows Quizbox's redirect there and gets sent back.
    /// Returns the callback's path and query, for the router.
    static func visitProvider(_ page: TestBrowser.Page) async throws -> String {
        #expect(page.status == .seeOther, "\(page.html)")
        let location = try #require(page.location)
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(redirectConfiguration: .disallow))
        defer { client.shutdown { _ in } }
        let response = try await client.execute(HTTPClientRequest(url: location), deadline: .now() + .seconds(10))
        #expect(response.status.code == 302)
        let back = try #require(response.headers.first(name: "location"))
        #expect(back.hasPrefix(publicURL + "/auth/"))
        return String(back.dropFirst(publicURL.count))
    }

    /// Starts a sign-in and comes back from the provider; returns Quizbox's answer to the callback.
    static func signIn(_ browser: TestBrowser, provider: String = "fakeid") async throws -> TestBrowser.Page {
        let callback = try await visitProvider(try await browser.get("/auth/\(provider)/start"))
        return try await browser.get(callback)
    }

    static func setsSession(_ page: TestBrowser.Page) -> Bool {
        page.headers[values: .setCookie].contains { $0.hasPrefix("quizbox_session=") && !$0.hasPrefix("quizbox_session=;") }
    }

    /// Every failure: a page that says what happened, no session, no account.
    static func expectFailure(_ page: TestBrowser.Page, _ status: HTTPResponse.Status, _ text: String, env: TestEnvironment,
                              sourceLocation: SourceLocation = #_sourceLocation) async throws {
        #expect(page.status == status, "\(page.html)", sourceLocation: sourceLocation)
        #expect(page.contains(text), "\(page.html)", sourceLocation: sourceLocation)
        #expect(!setsSession(page), sourceLocation: sourceLocation)
        #expect(try await env.store.credentials(username: "ada") == nil, sourceLocation: sourceLocation)
    }

    @Test func firstSignInCreatesAnAccountWithoutAPassword() async throws {
        try await withFlow { _, client, env in
            let browser = TestBrowser(client)
            let login = try await browser.get("/login")
            #expect(login.contains(#"id="sign-in-fakeid" href="/auth/fakeid/start""#))
            #expect(login.contains("Sign in with Fake ID"))
            let done = try await Self.signIn(browser)
            #expect(done.status == .seeOther)
            #expect(done.location == "/home")
            #expect(Self.setsSession(done))
            let profile = try await browser.get("/profile")
            #expect(profile.contains(#"<dd id="profile-username">ada</dd>"#))
            #expect(profile.contains("Ada Lovelace"))
            #expect(profile.contains(#"id="linked-fakeid""#))
            #expect(profile.contains("Set a password"))
            #expect(!profile.contains(#"id="old_password""#))
            let stored = try #require(try await env.store.credentials(username: "ada"))
            #expect(stored.passwordHash == nil)
            // No password logs in to it, not even an empty one.
            let other = TestBrowser(client)
            _ = try await other.get("/login")
            for password in ["", "!", "anything at all"] {
                let refused = try await other.post("/login", [("username", "ada"), ("password", password)])
                #expect(refused.status == .unauthorized)
                #expect(!Self.setsSession(refused))
                let api = try await client.execute(
                    uri: "/api/v1/sessions", method: .post, headers: [.contentType: "application/json"],
                    body: ByteBuffer(string: #"{"username": "ada", "password": "\#(password)"}"#)) { $0 }
                #expect(api.status == .unauthorized)
            }
        }
    }

    @Test func aSignInNeverSendsThePersonOffTheSite() async throws {
        try await withFlow { _, client, _ in
            // Nine starts: within the sign-ins allowed per address and minute.
            for next in Array(RedirectTests.bypasses.prefix(8)) + ["/quizzes/1"] {
                let browser = TestBrowser(client)
                let start = try await browser.get("/auth/fakeid/start?next=\(RedirectTests.query(next))")
                let done = try await browser.get(try await Self.visitProvider(start))
                #expect(done.location == (next == "/quizzes/1" ? "/quizzes/1" : "/home"), "\(next.debugDescription)")
            }
        }
    }

    @Test func secondSignInFindsTheSameAccount() async throws {
        try await withFlow { _, client, env in
            _ = try await Self.signIn(TestBrowser(client))
            let first = try #require(try await env.store.credentials(username: "ada")).user
            let again = TestBrowser(client)
            let done = try await Self.signIn(again)
            #expect(done.location == "/home")
            #expect(try await again.get("/profile").contains(#"<dd id="profile-username">ada</dd>"#))
            let identity = try #require(try await env.store.identity(provider: "fakeid", subject: "ada-1"))
            #expect(identity.userId == first.id)
        }
    }

    @Test func aTakenUsernameLeadsToChoosingAnother() async throws {
        try await withFlow { _, client, env in
            let owner = TestBrowser(client)
            try await owner.register("ada")
            let browser = TestBrowser(client)
            let choose = try await Self.signIn(browser)
            #expect(choose.status == .ok)
            #expect(choose.contains("Choose a username"))
            #expect(choose.contains("The username ada is taken here."))
            #expect(!Self.setsSession(choose))
            let taken = try await browser.post("/auth/choose-username", [("username", "ADA")])
            #expect(taken.status == .unprocessableContent)
            #expect(taken.contains("That username is taken."))
            let invalid = try await browser.post("/auth/choose-username", [("username", "a d")])
            #expect(invalid.status == .unprocessableContent)
            let done = try await browser.post("/auth/choose-username", [("username", "ada_l")])
            #expect(done.status == .seeOther, "\(done.html)")
            #expect(Self.setsSession(done))
            #expect(try await browser.get("/profile").contains(#"<dd id="profile-username">ada_l</dd>"#))
            let identity = try #require(try await env.store.identity(provider: "fakeid", subject: "ada-1"))
            #expect(identity.userId == (try await env.store.credentials(username: "ada_l"))?.user.id)
            // The waiting sign-in was used up.
            let replay = try await browser.post("/auth/choose-username", [("username", "ada_x")])
            #expect(replay.status == .badRequest)
        }
    }

    @Test func aSignedInUserLinksAProviderAndSignsInWithItLater() async throws {
        try await withFlow { fake, client, env in
            fake.signIn(as: .init(subject: "bob-7", username: "robert"))
            let browser = TestBrowser(client)
            try await browser.register("bob")
            let profile = try await browser.get("/profile")
            let link = try #require(profile.html.range(of: #"/auth/fakeid/start\?link=1&amp;csrf=[^"]+"#, options: .regularExpression))
            let url = String(profile.html[link]).replacingOccurrences(of: "&amp;", with: "&")
            let callback = try await Self.visitProvider(try await browser.get(url))
            let done = try await browser.get(callback)
            #expect(done.status == .seeOther)
            #expect(done.location == "/profile?linked=fakeid")
            let linkedPage = try await browser.follow(done)
            #expect(linkedPage.contains("linked as robert"))
            #expect(linkedPage.contains("Fake ID is now linked"))
            #expect(!(try await browser.get("/profile?linked=Free+prizes").contains("Free prizes")))
            let bob = try #require(try await env.store.credentials(username: "bob")).user
            #expect(try await env.store.identities(userId: bob.id).map(\.provider) == ["fakeid"])
            let later = TestBrowser(client)
            _ = try await Self.signIn(later)
            #expect(try await later.get("/profile").contains(#"<dd id="profile-username">bob</dd>"#))
            // A link without the page's CSRF token is refused.
            let forged = try await browser.get("/auth/fakeid/start?link=1&csrf=forged")
            #expect(forged.status == .forbidden)
        }
    }

    @Test func unlinkingKeepsAWayToSignIn() async throws {
        try await withFlow { _, client, env in
            let browser = TestBrowser(client)
            _ = try await Self.signIn(browser)
            let refused = try await browser.post("/profile/unlink", [("provider", "fakeid")])
            #expect(refused.status == .unprocessableContent)
            #expect(refused.contains("only way to sign in"))
            let set = try await browser.post("/profile/password", [("new_password", "a new password"), ("new_password_confirm", "a new password")])
            #expect(set.status == .ok, "\(set.html)")
            #expect(set.contains("Your password is set"))
            let unlinked = try await browser.post("/profile/unlink", [("provider", "fakeid")])
            #expect(unlinked.status == .ok)
            #expect(unlinked.contains("no longer linked"))
            let ada = try #require(try await env.store.credentials(username: "ada"))
            #expect(try await env.store.identities(userId: ada.user.id).isEmpty)
            let other = TestBrowser(client)
            _ = try await other.get("/login")
            let login = try await other.post("/login", [("username", "ada"), ("password", "a new password")])
            #expect(login.status == .seeOther)
        }
    }

    @Test func aGitHubStyleProviderWithoutOpenIDConnectUsesUserinfo() async throws {
        try await withFlow(providers: { [$0.plainConfig()] }) { fake, client, env in
            fake.signIn(as: .init(subject: "4242", username: "octo-cat"))
            let browser = TestBrowser(client)
            let done = try await Self.signIn(browser, provider: "fakehub")
            #expect(done.location == "/home", "\(done.html)")
            #expect(Self.setsSession(done))
            let identity = try #require(try await env.store.identity(provider: "fakehub", subject: "4242"))
            #expect(identity.providerUsername == "octo-cat")
            #expect(try await env.store.user(id: identity.userId)?.username == "octo-cat")
        }
    }

    @Test func aWrongStateIsRefused() async throws {
        try await withFlow { _, client, env in
            let browser = TestBrowser(client)
            let callback = try await Self.visitProvider(try await browser.get("/auth/fakeid/start"))
            let saved = try #require(browser.cookies["quizbox_oauth_state"])
            let forged = callback.replacingOccurrences(of: "state=", with: "state=X")
            try await Self.expectFailure(try await browser.get(forged), .badRequest, "This sign-in did not start here", env: env)
            // Another browser (login CSRF: someone else's callback) is refused too, even one
            // that has a sign-in of its own under way.
            try await Self.expectFailure(try await TestBrowser(client).get(callback), .badRequest, "This sign-in did not start here", env: env)
            let victim = TestBrowser(client)
            _ = try await Self.visitProvider(try await victim.get("/auth/fakeid/start"))
            try await Self.expectFailure(try await victim.get(callback), .badRequest, "This sign-in did not start here", env: env)
            // The owner's sign-in still works: the refused attempts did not use it up. (A refused
            // callback clears the browser's state cookie, so it is put back as it was.)
            browser.setCookie("quizbox_oauth_state", saved)
            let done = try await browser.get(callback)
            #expect(done.status == .seeOther)
            #expect(Self.setsSession(done))
        }
    }

    @Test func aSignInRefusedAtTheProviderSaysSo() async throws {
        try await withFlow { _, client, env in
            let browser = TestBrowser(client)
            _ = try await browser.get("/auth/fakeid/start")
            let state = try #require(browser.cookies["quizbox_oauth_state"])
            let denied = try await browser.get("/auth/fakeid/callback?error=access_denied&state=\(state)")
            try await Self.expectFailure(denied, .badRequest, "Fake ID did not confirm the sign-in", env: env)
            #expect(denied.contains("access_denied"))
        }
    }

    @Test func aReplayedCodeIsRefused() async throws {
        try await withFlow { fake, client, env in
            let browser = TestBrowser(client)
            let first = try await Self.visitProvider(try await browser.get("/auth/fakeid/start"))
            let stateCookie = try #require(browser.cookies["quizbox_oauth_state"])
            _ = try await browser.get(first)
            let ada = try #require(try await env.store.credentials(username: "ada"))
            // The same callback again: its sign-in is used up.
            let again = TestBrowser(client)
            again.setCookie("quizbox_oauth_state", stateCookie)
            let replay = try await again.get(first)
            #expect(replay.status == .badRequest)
            #expect(replay.contains("This sign-in has expired"))
            #expect(!Self.setsSession(replay))
            // The old code with a fresh state: the provider refuses it.
            let requestsBefore = fake.tokenRequests
            let fresh = TestBrowser(client)
            let second = try await Self.visitProvider(try await fresh.get("/auth/fakeid/start"))
            let oldCode = try #require(first.split(separator: "?")[1].split(separator: "&").first { $0.hasPrefix("code=") })
            let newState = try #require(second.split(separator: "?")[1].split(separator: "&").first { $0.hasPrefix("state=") })
            let refused = try await fresh.get("/auth/fakeid/callback?\(oldCode)&\(newState)")
            #expect(refused.status == .badRequest)
            #expect(refused.contains("did not confirm the sign-in"))
            #expect(refused.contains("invalid_grant"))
            #expect(!Self.setsSession(refused))
            #expect(fake.tokenRequests == requestsBefore + 1)
            #expect(try await env.store.identities(userId: ada.user.id).count == 1)
        }
    }

    @Test func anIDTokenSignedWithAnotherKeyIsRefused() async throws {
        try await withFlow { fake, client, env in
            fake.behave(.init(signWithOtherKey: true))
            try await Self.expectFailure(try await Self.signIn(TestBrowser(client)), .badRequest, "signature is not valid", env: env)
        }
    }

    @Test func anExpiredIDTokenIsRefused() async throws {
        try await withFlow { fake, client, env in
            fake.behave(.init(expiresIn: -600))
            try await Self.expectFailure(try await Self.signIn(TestBrowser(client)), .badRequest, "the ID token has expired", env: env)
        }
    }

    @Test func anIDTokenForAnotherSignInIsRefused() async throws {
        try await withFlow { fake, client, env in
            fake.behave(.init(nonce: "someone-elses-nonce"))
            try await Self.expectFailure(try await Self.signIn(TestBrowser(client)), .badRequest, "belongs to another sign-in", env: env)
            fake.behave(.init(audience: "another-app"))
            try await Self.expectFailure(try await Self.signIn(TestBrowser(client)), .badRequest, "issued to another application", env: env)
        }
    }

    @Test func aProviderThatIsDownEndsOnAClearPage() async throws {
        try await withFlow(providers: { fake in
            var down = fake.oidcConfig(name: "down")
            down.issuer = "http://127.0.0.1:1"
            var tokenDown = fake.plainConfig(name: "tokendown")
            tokenDown.tokenURL = "http://127.0.0.1:1/token"
            return [down, tokenDown]
        }) { _, client, env in
            let browser = TestBrowser(client)
            try await Self.expectFailure(try await browser.get("/auth/down/start"), .badGateway, "could not be reached", env: env)
            try await Self.expectFailure(try await Self.signIn(browser, provider: "tokendown"), .badGateway,
                                         "FakeHub could not be reached", env: env)
            try await Self.expectFailure(try await browser.get("/auth/nosuch/start"), .notFound, "No such sign-in provider", env: env)
        }
    }

    @Test func startingSignInsIsRateLimitedLikeLogIns() async throws {
        try await withFlow { _, client, env in
            let browser = TestBrowser(client)
            for _ in 0..<env.config.loginAttemptsPerMinute {
                #expect(try await browser.get("/auth/fakeid/start").status == .seeOther)
            }
            let limited = try await browser.get("/auth/fakeid/start")
            #expect(limited.status == .tooManyRequests)
            #expect(limited.contains("Too many sign-ins"))
            env.time.advance(by: 61)
            #expect(try await browser.get("/auth/fakeid/start").status == .seeOther)
        }
    }

    @Test func theAPIListsTheProviders() async throws {
        try await withFlow(providers: { [$0.oidcConfig(), $0.plainConfig()] }) { _, client, _ in
            let response = try await client.execute(uri: "/api/v1/auth/providers", method: .get) { $0 }
            #expect(response.status == .ok)
            struct Listing: Decodable { struct Provider: Decodable { var name, displayName, startUrl: String }; var providers: [Provider] }
            let listing = try JSONDecoder().decode(Listing.self, from: Data(response.body.readableBytesView))
            #expect(listing.providers.map(\.name) == ["fakeid", "fakehub"])
            #expect(listing.providers.first?.startUrl == "\(Self.publicURL)/auth/fakeid/start")
            #expect(listing.providers.last?.displayName == "FakeHub")
        }
    }
}
