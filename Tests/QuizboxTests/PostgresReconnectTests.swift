import Foundation
import NIOHTTP1
import QuizTestSupport
import Testing

/// The real binary on PostgreSQL when the database goes away while it runs, and comes back.
@Suite struct PostgresReconnectTests {
    @Test(.enabled(if: TestPostgres.serverURL != nil, Comment(rawValue: TestPostgres.unavailable)))
    func whileTheDatabaseIsAwayRequestsGet503AndOnceItIsBackTheyAreServedWithoutARestart() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try await TestPostgres.withFreshDatabase { url in
            let server = try RunningServer(arguments: ["--database", url], environment: ["QUIZBOX_BCRYPT_COST": "4"], in: directory)
            let (created, _) = try await server.request("POST", "/api/v1/users", json: [
                "username": "pat", "firstName": "Pat", "lastName": "Doe", "password": "through the outage",
            ])
            #expect(created == 201)
            let login = ["username": "pat", "password": "through the outage"]
            let (_, session) = try await server.request("POST", "/api/v1/sessions", json: login)
            let token = try #require(session["token"] as? String)
            #expect(try await server.request("GET", "/api/v1/leaderboard", token: token).0 == 200)

            try await TestPostgres.whileUnreachable(url) {
                // Every connection the server held was cut and no new one is let in.
                for (method, path, json) in [
                    ("GET", "/api/v1/leaderboard", nil), ("GET", "/api/v1/me", nil), ("GET", "/api/v1/quizzes/1/questions", nil),
                    ("POST", "/api/v1/quizzes/1/attempts", nil), ("POST", "/api/v1/sessions", login as [String: String]?),
                ] as [(String, String, [String: String]?)] {
                    let (status, body) = try await server.request(method, path, token: token, json: json)
                    #expect(status == 503, "\(method) \(path)")
                    let error = body["error"] as? [String: Any]
                    #expect(error?["code"] as? String == "database_unavailable", "\(method) \(path): \(body)")
                    #expect(!"\(body)".contains("quizbox_test_"), "no database detail reaches the client")
                }
                let page = try await server.page("/leaderboard", token: token)
                #expect(page.status == 503)
                #expect(page.html.contains("cannot reach its database"), "the page says why")
                #expect(try await server.request("GET", "/health").0 == 200, "the process itself is up")
            }

            // Back: the pool opens new connections on its own.
            #expect(try await server.request("GET", "/api/v1/leaderboard", token: token).0 == 200)
            let (status, again) = try await server.request("POST", "/api/v1/sessions", json: login)
            #expect(status == 200)
            #expect(again["token"] is String)
            let (started, attempt) = try await server.request("POST", "/api/v1/quizzes/1/attempts", token: token)
            #expect(started == 201, "\(attempt)")
            #expect(try await server.page("/leaderboard", token: token).status == 200)
            let stopped = server.stop()
            #expect(stopped.status == 0)
            #expect(!stopped.log.contains("Fatal error"), "\(stopped.log)")
        }
    }
}

extension RunningServer {
    /// A page as a signed-in browser gets it (the session cookie), with its status and HTML.
    func page(_ path: String, token: String) async throws -> (status: Int, html: String) {
        let (status, data) = try await send("GET", path, headers: ["Cookie": "quizbox_session=\(token)"])
        return (status, String(decoding: data, as: UTF8.self))
    }
}
