import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import QuizAPI
import QuizCore
@testable import QuizServer
import QuizStore
import QuizUseCases
import Testing

/// Who may call an API operation, declared once per group in `APIHandler` (`signedIn`, `authors`,
/// `admins`, or open to anyone), and the refusals each group answers with.
@Suite struct APIGroupTests {
    func signUp(_ client: any TestClientProtocol, _ env: TestEnvironment, _ name: String, role: Role) async throws -> String {
        let token = try await client.signUp(name)
        if role != .player {
            try await env.store.setRole(role, username: name)
            env.time.advance(by: env.config.resolvedCacheLifetime + 0.1)
        }
        return token
    }

    func call(_ client: any TestClientProtocol, _ method: HTTPRequest.Method, _ path: String, token: String?,
              language: String? = nil) async throws -> (status: HTTPResponse.Status, code: String?, message: String?, challenge: String?) {
        var headers = HTTPFields()
        if let token { headers[.authorization] = "Bearer \(token)" }
        if let language { headers[.acceptLanguage] = language }
        return try await client.execute(uri: path, method: method, headers: headers) { response in
            let json = (try? JSONSerialization.jsonObject(with: Data(String(buffer: response.body).utf8))) as? [String: Any]
            let error = json?["error"] as? [String: Any]
            return (response.status, error?["code"] as? String, error?["message"] as? String, response.headers[.wwwAuthenticate])
        }
    }

    @Test func operationsOpenToAnyoneReadNoSessionWhateverTheTokenSays() async throws {
        try await withApp { client, _ in
            let unknown = String(repeating: "a", count: SessionTokens.length)
            for path in ["/api/v1/subjects", "/api/v1/quizzes/1/questions", "/api/v1/games", "/api/v1/auth/providers"] {
                #expect(try await call(client, .get, path, token: unknown).status == .ok, "\(path)")
            }
            let refused = try await call(client, .get, "/api/v1/me", token: unknown)
            #expect(refused.status == .unauthorized)
            #expect(refused.code == "invalid_token")
        }
    }

    @Test func everyGroupAsksAnonymousCallersToLogIn() async throws {
        try await withApp { client, _ in
            for (method, path) in [(HTTPRequest.Method.get, "/api/v1/me"), (.get, "/api/v1/leaderboard"), (.get, "/api/v1/manage/outline"),
                                   (.get, "/api/v1/quizzes/1/export"), (.get, "/api/v1/manage/users"), (.delete, "/api/v1/articles/1")] {
                let answer = try await call(client, method, path, token: nil)
                #expect(answer.status == .unauthorized, "\(path)")
                #expect(answer.code == "unauthenticated", "\(path)")
                #expect(answer.challenge == "Bearer", "\(path)")
            }
        }
    }

    @Test func playersAreRefusedAuthorsOperationsAndAuthorsAdminsOperations() async throws {
        try await withApp { client, env in
            let player = try await signUp(client, env, "player", role: .player)
            let author = try await signUp(client, env, "writer", role: .author)
            let admin = try await signUp(client, env, "boss", role: .admin)
            let authorsOnly = "This needs an author or admin account."
            let adminsOnly = "This needs an admin account."
            for (method, path) in [(HTTPRequest.Method.get, "/api/v1/manage/outline"), (.get, "/api/v1/quizzes/1/export"),
                                   (.get, "/api/v1/manage/questions/1"), (.delete, "/api/v1/articles/1")] {
                let refused = try await call(client, method, path, token: player)
                #expect(refused.status == .forbidden, "\(path)")
                #expect(refused.code == "forbidden" && refused.message == authorsOnly, "\(path): \(refused)")
                #expect(try await call(client, method, path, token: author).status != .forbidden, "\(path)")
            }
            for token in [player, author] {
                let refused = try await call(client, .get, "/api/v1/manage/users", token: token)
                #expect(refused.status == .forbidden)
                #expect(refused.message == adminsOnly)
            }
            #expect(try await call(client, .get, "/api/v1/manage/users", token: admin).status == .ok)
            let finnish = try await call(client, .get, "/api/v1/manage/users", token: author, language: "fi")
            #expect(finnish.message == "Tähän tarvitaan ylläpitäjän tili.")
            let finnishAuthor = try await call(client, .get, "/api/v1/manage/outline", token: player, language: "fi")
            #expect(finnishAuthor.message == "Tähän tarvitaan laatijan tai ylläpitäjän tili.")
        }
    }

    /// The guess route writes its JSON by hand; the generated types are the contract it keeps.
    @Test(arguments: [
        GuessOutcome(verdict: "found", item: (3, "Mars \"the red\""), finished: false, foundCount: 1, itemCount: 8),
        GuessOutcome(verdict: "alreadyFound", item: (0, "Mercury"), finished: true, foundCount: 8, itemCount: 8),
        GuessOutcome(verdict: "notAnItem", item: nil, finished: false, foundCount: 0, itemCount: 8),
        GuessOutcome(verdict: "gameOver", item: nil, finished: true, foundCount: 2, itemCount: 8),
    ])
    func theHandWrittenGuessAnswerIsTheGeneratedShape(outcome: GuessOutcome) throws {
        let decoded = try JSONDecoder().decode(Components.Schemas.GuessResult.self, from: Data(outcome.json.utf8))
        #expect(decoded == Components.Schemas.GuessResult(outcome))
    }

    /// `GamesAPI.guess` is not routed (`GuessRoute` serves the path), but it answers as the route does.
    @Test func theGeneratedGuessOperationAnswersAsTheGuessRoute() async throws {
        try await withApp { _, env in
            _ = try await env.store.importBank(planetsBank(), at: env.time.now())
            let router = Router(context: AppRequestContext.self)
            router.add(middleware: CredentialMiddleware())
            let useCases = UseCases(store: env.store, config: env.config, time: env.time, choiceKey: ChoiceKey(secret: ChoiceKey.newSecret()),
                                    hasher: PasswordHasher(cost: 4), limiter: RateLimiter(limit: 100, time: env.time))
            try APIHandler(useCases: useCases, config: env.config, time: env.time)
                .registerHandlers(on: GeneratedRoutes(router: router), serverURL: URL(string: "/api/v1")!)
            try await Application(router: router).test(.router) { generated in
                let token = try await generated.signUp("ada")
                let questionId = try #require((try await generated.call(.get, "/api/v1/games")["questions"] as? [[String: Any]])?.first?["id"])
                let game = try #require(try await generated.call(.post, "/api/v1/games", token: token, json: ["questionId": questionId])["id"] as? Int)
                let found = try await generated.call(.post, "/api/v1/games/\(game)/guesses", token: token, json: ["text": "Mars"])
                #expect(found.status == .ok)
                #expect(NSDictionary(dictionary: found.json) == NSDictionary(dictionary: [
                    "verdict": "found", "item": ["index": 3, "answer": "Mars"], "state": "playing", "foundCount": 1, "itemCount": 8,
                ] as [String: Any]))
            }
        }
    }
}
