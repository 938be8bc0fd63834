import Configuration
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import QuizCore
import QuizServer
import QuizStore
import Testing

/// `GET /metrics`: off unless configured, guarded by its token, and counting what the issue asks for.
@Suite struct MetricsTests {
    static let token = "scrape-secret-0123456789"

    static func on(_ config: inout ServerConfig) {
        config.metrics = true
        config.metricsToken = token
    }

    func scrape(_ client: any TestClientProtocol) async throws -> String {
        let response = try await client.call(.get, "/metrics", token: Self.token)
        #expect(response.status == .ok)
        return response.raw
    }

    @Test func metricsAreOffByDefault() async throws {
        try await withApp { client, _ in
            let anonymous = try await client.call(.get, "/metrics")
            let withToken = try await client.call(.get, "/metrics", token: Self.token)
            #expect(anonymous.status == .notFound && withToken.status == .notFound)
        }
    }

    @Test func onlyTheRightBearerTokenReadsTheMetrics() async throws {
        try await withApp(configure: Self.on) { client, _ in
            let none = try await client.call(.get, "/metrics")
            #expect(none.status == .unauthorized)
            #expect(none.headers[.wwwAuthenticate]?.hasPrefix("Bearer") == true)
            #expect(none.errorCode == "unauthorized")
            #expect(try await client.call(.get, "/metrics", token: "scrape-secret-0123456780").status == .unauthorized)
            #expect(try await client.call(.get, "/metrics", token: Self.token + "x").status == .unauthorized)
            #expect(try await client.call(.get, "/metrics", token: String(repeating: "a", count: 5000)).status == .unauthorized)
            var basic = HTTPFields()
            basic[.authorization] = "Basic \(Self.token)"
            #expect(try await client.execute(uri: "/metrics", method: .get, headers: basic) { $0.status } == .unauthorized)
            let allowed = try await client.call(.get, "/metrics", token: Self.token)
            #expect(allowed.status == .ok)
            #expect(allowed.headers[.contentType]?.hasPrefix("text/plain; version=0.0.4") == true)
        }
    }

    @Test func requestsAreCountedAndTimedByRouteTemplateNeverByRawPath() async throws {
        try await withApp(configure: Self.on) { client, _ in
            _ = try await client.call(.get, "/api/v1/quizzes/1/questions")
            _ = try await client.call(.get, "/api/v1/quizzes/1/questions")
            #expect(try await client.call(.get, "/api/v1/quizzes/987/questions").status == .notFound)
            #expect(try await client.call(.get, "/no/such/page/31337").status == .notFound)
            let text = try await scrape(client)
            let route = #"route="/api/v1/quizzes/{quizId}/questions",method="GET""#
            #expect(metricValue(text, #"quizbox_http_requests_total{\#(route),status="200"}"#) == 2, "\(text)")
            #expect(metricValue(text, #"quizbox_http_requests_total{\#(route),status="404"}"#) == 1)
            #expect(metricValue(text, #"quizbox_http_requests_total{route="unmatched",method="GET",status="404"}"#) == 1)
            #expect(metricValue(text, #"quizbox_http_request_duration_seconds_count{\#(route)}"#) == 3)
            #expect(metricValue(text, #"quizbox_http_request_duration_seconds_bucket{\#(route),le="+Inf"}"#) == 3)
            #expect(!text.contains("quizzes/987") && !text.contains("page/31337"), "raw paths never become labels")
            // The second list came from the response cache; the unknown quiz is not cached.
            #expect(metricValue(text, #"quizbox_cache_hits_total{cache="catalog_responses"}"#) == 1)
            #expect(metricValue(text, #"quizbox_cache_misses_total{cache="catalog_responses"}"#) == 2)
        }
    }

    @Test func cachesPoolsAnswersLiveGamesAndImportsAreCounted() async throws {
        try await withApp(configure: Self.on) { client, env in
            let token = try await client.signUp("counted")
            try await env.store.setRole(.author, username: "counted")
            env.time.advance(by: env.config.resolvedCacheLifetime + 0.1)
            // The session is read from the database once, then from the cache.
            for _ in 0..<3 { #expect(try await client.call(.get, "/api/v1/me", token: token).status == .ok) }
            let attempt = try #require(try await client.call(.post, "/api/v1/quizzes/1/attempts", token: token)["id"] as? Int)
            let answered = try await client.call(.post, "/api/v1/attempts/\(attempt)/answers", token: token,
                                                 json: ["questionId": 1, "answer": ["choiceId": try await client.choiceId("Jupiter", question: 1)]])
            #expect(answered.status == .ok, "\(answered.raw)")
            let game = try await client.call(.post, "/api/v1/live-games", token: token, json: ["quizId": 1])
            #expect(game.status == .created, "\(game.raw)")
            #expect(try await upload(client, "fileName=rome.gift", token: token, body: "Who was the first Roman emperor? {=Augustus ~Nero}") == .ok)
            let refused = try await upload(client, "fileName=bank.csv", token: token, body: "question,answer\nBad?,\n")
            #expect((400..<500).contains(refused.code))

            let text = try await scrape(client)
            #expect(metricValue(text, #"quizbox_cache_misses_total{cache="sessions"}"#) ?? 0 >= 1, "\(text)")
            #expect(metricValue(text, #"quizbox_cache_hits_total{cache="sessions"}"#) ?? 0 >= 2)
            #expect(metricValue(text, #"quizbox_answers_total{kind="quiz"}"#) == 1)
            #expect(metricValue(text, #"quizbox_answers_total{kind="live"}"#) == 0)
            #expect(metricValue(text, "quizbox_live_games_running") == 1)
            #expect(metricValue(text, "quizbox_live_players_connected") == 0)
            #expect(metricValue(text, #"quizbox_imports_total{result="succeeded"}"#) == 1)
            #expect(metricValue(text, #"quizbox_imports_total{result="failed"}"#) == 1)
            let pool = apiTestsOnPostgres ? "main" : "readers"
            #expect(metricValue(text, #"quizbox_db_pool_connections_max{pool="\#(pool)"}"#) == 2)
            // Every request's lease went back. On PostgreSQL the live game's lease renewal (each
            // second, on the real clock) may hold the one connection it needs at that moment.
            let inUse = metricValue(text, #"quizbox_db_pool_connections_in_use{pool="\#(pool)"}"#)
            #expect(inUse == 0 || (apiTestsOnPostgres && inUse == 1), "every lease went back: \(String(describing: inUse))")
            #expect(metricValue(text, #"quizbox_db_pool_wait_seconds_count{pool="\#(pool)"}"#) ?? 0 > 0)
        }
    }

    @Test func anUnreadableSwitchStopsTheServerWithItsName() throws {
        let reader = ConfigReader(provider: EnvironmentVariablesProvider(environmentVariables: [
            "QUIZBOX_METRICS": "maybe", "QUIZBOX_METRICS_TOKEN": "t0k3n", "QUIZBOX_LOG_REQUESTS": "off",
        ]))
        let config = ServerConfig(reader: reader)
        #expect(config.metricsToken == "t0k3n")
        #expect(!config.metrics && !config.logRequests)
        #expect(throws: ServerConfig.Problem.self) { try config.checkProblems() }
        #expect(config.problems == [#"QUIZBOX_METRICS must be on or off, not "maybe""#])
        let on = ServerConfig(reader: ConfigReader(provider: EnvironmentVariablesProvider(environmentVariables: ["QUIZBOX_METRICS": "on"])))
        #expect(on.metrics && on.logRequests && on.problems.isEmpty)
    }

    func upload(_ client: any TestClientProtocol, _ query: String, token: String, body: String) async throws -> HTTPResponse.Status {
        var headers = HTTPFields()
        headers[.authorization] = "Bearer \(token)"
        headers[.contentType] = "application/octet-stream"
        return try await client.execute(uri: "/api/v1/imports?\(query)", method: .post, headers: headers, body: ByteBuffer(string: body)) { $0.status }
    }
}

/// The value of one series (`name{labels}` as Prometheus prints it), nil when it is not there.
func metricValue(_ exposition: String, _ series: String) -> Double? {
    for line in exposition.split(separator: "\n") where line.hasPrefix(series + " ") {
        return Double(line.dropFirst(series.count + 1))
    }
    return nil
}

/// `X-Request-Id` on every response; a client's own id is kept only when short and plain.
@Suite struct RequestIdTests {
    func id(_ client: any TestClientProtocol, _ uri: String, sending: String? = nil) async throws -> (HTTPResponse.Status, String?) {
        var headers = HTTPFields()
        if let sending { headers[HTTPField.Name("X-Request-Id")!] = sending }
        return try await client.execute(uri: uri, method: .get, headers: headers) { ($0.status, $0.headers[HTTPField.Name("X-Request-Id")!]) }
    }

    @Test func pagesAPIAndErrorsAllCarryARequestId() async throws {
        try await withApp { client, _ in
            var seen: Set<String> = []
            for (uri, status) in [("/contact", HTTPResponse.Status.ok), ("/api/v1/subjects", .ok),
                                  ("/api/v1/quizzes/987/questions", .notFound), ("/nowhere", .notFound)] {
                let (answered, id) = try await id(client, uri)
                #expect(answered == status, "\(uri)")
                let given = try #require(id, "\(uri) has no X-Request-Id")
                #expect(RequestIdTests.isPlain(given), "\(given)")
                seen.insert(given)
            }
            #expect(seen.count == 4, "each request has its own id")
        }
    }

    @Test func aPlainIncomingIdIsEchoedAndAnythingElseReplaced() async throws {
        try await withApp { client, _ in
            #expect(try await id(client, "/api/v1/subjects", sending: "lb-7f3a.42:9_x").1 == "lb-7f3a.42:9_x")
            #expect(try await id(client, "/nowhere", sending: "trace-1").1 == "trace-1")
            for unsafe in ["has space", "<script>", String(repeating: "a", count: 65), "a/b"] {
                let (_, given) = try await id(client, "/api/v1/subjects", sending: unsafe)
                let replaced = try #require(given)
                #expect(replaced != unsafe && RequestIdTests.isPlain(replaced), "\(unsafe) → \(replaced)")
            }
        }
    }

    static func isPlain(_ id: String) -> Bool {
        !id.isEmpty && id.count <= 64 && id.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.:".contains($0)) }
    }
}
