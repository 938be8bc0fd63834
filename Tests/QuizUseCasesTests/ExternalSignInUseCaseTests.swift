import Foundation
import QuizCore
import QuizStore
import QuizUseCases
import Testing

/// The sign-in flow's own rules, with a transport that answers nothing: the provider is never
/// reached in these cases.
@Suite struct ExternalSignInUseCaseTests {
    struct NoNetwork: OAuthTransport {
        func getJSON<T: Decodable>(_ type: T.Type, from url: String, bearer: String?) async throws(OAuthTransportFailure) -> T {
            throw .unreachable("no network in this test")
        }
        func postForm<T: Decodable>(_ type: T.Type, to url: String, fields: [(String, String)]) async throws(OAuthTransportFailure) -> T {
            throw .unreachable("no network in this test")
        }
    }

    func flow(_ env: UseCaseEnvironment, limit: Int = 10) -> ExternalSignIn {
        var github = OAuthProviderConfig.preset("github")!
        github.clientId = "id"
        github.clientSecret = "secret"
        return ExternalSignIn(store: env.store, settings: .init(providers: [github], publicURL: "http://quiz.example", pendingLifetime: 600),
                              time: env.time, directory: ProviderDirectory(http: NoNetwork(), time: env.time), http: NoNetwork(),
                              sessions: env.sessions, limiter: RateLimiter(limit: limit, window: 60, time: env.time))
    }

    @Test func startingSendsTheBrowserToTheProviderWithStateAndPKCE() async throws {
        try await withUseCases { env in
            let flow = flow(env)
            let (url, state) = try await flow.start(try flow.provider(named: "github"), linkUserId: nil, next: "/home", address: "192.0.2.1")
            #expect(url.hasPrefix("https://github.com/login/oauth/authorize?"))
            #expect(url.contains("state=\(state)"))
            #expect(url.contains("code_challenge_method=S256"))
            #expect(url.contains("redirect_uri=http%3A%2F%2Fquiz.example%2Fauth%2Fgithub%2Fcallback"))
            #expect(throws: ExternalSignIn.Failure.unknownProvider) { try flow.provider(named: "myspace") }
        }
    }

    @Test func startsArePerAddressLimited() async throws {
        try await withUseCases { env in
            let flow = flow(env, limit: 2)
            let github = try flow.provider(named: "github")
            for _ in 0..<2 { _ = try await flow.start(github, linkUserId: nil, next: "/home", address: "192.0.2.1") }
            await #expect(throws: ExternalSignIn.Failure.tooManyAttempts) {
                try await flow.start(github, linkUserId: nil, next: "/home", address: "192.0.2.1")
            }
            _ = try await flow.start(github, linkUserId: nil, next: "/home", address: "198.51.100.1")
        }
    }

    @Test func aCallbackWhoseStateIsNotThisBrowsersIsRefusedBeforeAnythingIsRead() async throws {
        try await withUseCases { env in
            let flow = flow(env)
            let github = try flow.provider(named: "github")
            let (_, state) = try await flow.start(github, linkUserId: nil, next: "/home", address: "192.0.2.1")
            await #expect(throws: ExternalSignIn.Failure.stateMismatch) {
                try await flow.finish(github, code: "c", state: state, providerError: nil, browserState: SessionTokens.make(), signedInUserId: nil)
            }
            // The real state works once; the provider being unreachable then says so.
            await #expect(throws: ExternalSignIn.Failure.unreachable(provider: "GitHub", reason: "no network in this test")) {
                try await flow.finish(github, code: "c", state: state, providerError: nil, browserState: state, signedInUserId: nil)
            }
            await #expect(throws: ExternalSignIn.Failure.expired) {
                try await flow.finish(github, code: "c", state: state, providerError: nil, browserState: state, signedInUserId: nil)
            }
        }
    }

    @Test func theOnlyWayToSignInCannotBeUnlinked() async throws {
        try await withUseCases { env in
            let user = try await env.store.createUser(NewUser(username: "octo", firstName: "O", lastName: "C", passwordHash: nil,
                                                              role: .player, createdAt: env.time.now()))
            try await env.store.link(ExternalIdentity(provider: "github", subject: "1", userId: user.id, providerUsername: "octo",
                                                      createdAt: env.time.now()))
            await #expect(throws: ExternalSignIn.Failure.lastSignInMethod) { try await flow(env).unlink(provider: "github", userId: user.id) }
            await #expect(throws: ExternalSignIn.Failure.notLinked) { try await flow(env).unlink(provider: "google", userId: user.id) }
        }
    }
}
