import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import QuizCore
import QuizServer
import QuizStore
import QuizTestSupport
import Testing

/// Two applications on one PostgreSQL database, each with its own connection pool, as two
/// instances behind a load balancer would be. Whatever one does, the other must see at once.
@Suite(.enabled(if: TestPostgres.serverURL != nil, Comment(rawValue: TestPostgres.unavailable)))
struct TwoInstanceTests {
    @Test func aTokenFromOneInstanceWorksOnTheOtherUntilLoggedOut() async throws {
        try await withTwoInstances { a, b, _ in
            let token = try await a.signUp("ada")
            // Both have looked the session up (and may keep it) before it ends on one.
            #expect(try await a.call(.get, "/api/v1/me", token: token)["username"] as? String == "ada")
            #expect(try await b.call(.get, "/api/v1/me", token: token)["username"] as? String == "ada")
            #expect(try await b.call(.delete, "/api/v1/sessions/current", token: token).status == .noContent)
            #expect(try await a.call(.get, "/api/v1/me", token: token).status == .unauthorized)
        }
    }

    @Test func anAnswerGivenOnOneShowsOnTheOthersAttemptAndQuestionPage() async throws {
        try await withTwoInstances { a, b, _ in
            let (token, ids, attemptId) = try await a.adaStartsTheFirstQuiz()
            // A first read on B, so a cached copy there would be stale afterwards.
            #expect((try await b.call(.get, "/api/v1/attempts/\(attemptId)", token: token)["answers"] as? [Any])?.count == 0)
            let page = "/play/\(attemptId)/questions/\(ids[0])"
            #expect(!(try await b.page(page, token: token).contains("Right!")))

            let answer = try await a.call(.post, "/api/v1/attempts/\(attemptId)/answers", token: token,
                                          json: ["questionId": ids[0], "answer": ["choiceId": try await a.choiceId("Jupiter", question: ids[0])]])
            #expect(answer["verdict"] as? String == "correct")
            #expect((try await b.call(.get, "/api/v1/attempts/\(attemptId)", token: token)["answers"] as? [Any])?.count == 1)
            #expect(try await b.page(page, token: token).contains("Right! +1 point"))
            let again = try await b.call(.post, "/api/v1/attempts/\(attemptId)/answers", token: token,
                                         json: ["questionId": ids[0], "answer": ["choiceId": try await b.choiceId("Mars", question: ids[0])]])
            #expect(again["verdict"] as? String == "alreadyAnswered", "both instances show the same ids")
        }
    }

    /// Each instance keeps the catalog, the encoded question list and sessions in memory; an
    /// author's edit or a role change on one must show on the other's very next request.
    @Test func anEditOrARoleChangeOnOneShowsOnTheOtherAtOnce() async throws {
        try await withTwoInstances { a, b, env in
            let author = try await a.signUp("writer")
            #expect(try await b.call(.get, "/api/v1/manage/questions/1", token: author).status == .forbidden)
            try await env.store.setRole(.author, username: "writer")
            let (quizId, before) = try await b.firstQuiz()
            let first = try #require(before.first?["id"] as? Int)
            #expect(before.first?["text"] as? String != "Which planet is red?")
            let page = try await b.page("/quizzes/\(quizId)", token: author)

            var edited = try await b.call(.get, "/api/v1/manage/questions/\(first)", token: author).json
            edited["text"] = "Which planet is red?"
            #expect(try await a.call(.put, "/api/v1/manage/questions/\(first)", token: author, json: edited).status == .ok)
            let after = try await b.call(.get, "/api/v1/quizzes/\(quizId)/questions")["questions"] as? [[String: Any]]
            #expect(after?.first?["text"] as? String == "Which planet is red?")

            let renamed = try await a.call(.patch, "/api/v1/manage/quizzes/\(quizId)", token: author, json: ["title": "Renamed on A"])
            #expect(renamed.status == .noContent, "\(renamed.raw)")
            #expect(try await b.call(.get, "/api/v1/quizzes/\(quizId)")["title"] as? String == "Renamed on A")
            let pageAfter = try await b.page("/quizzes/\(quizId)", token: author)
            #expect(pageAfter != page && pageAfter.contains("Renamed on A"))

            try await env.store.setRole(.player, username: "writer")
            #expect(try await b.call(.get, "/api/v1/manage/questions/\(first)", token: author).status == .forbidden)
        }
    }

    @Test func theSameAnswersAndFinishSentToBothAtOnceCountOnce() async throws {
        try await withTwoInstances { a, b, _ in
            let (token, ids, attemptId) = try await a.adaStartsTheFirstQuiz()
            let answers = "/api/v1/attempts/\(attemptId)/answers"
            // The ids A lists, sent to both: the instances derive them from one shared secret.
            let jupiter = try await a.choiceId("Jupiter", question: ids[0])
            let giants = [try await a.choiceId("Jupiter", question: ids[1]), try await a.choiceId("Saturn", question: ids[1])]
            #expect(try await b.choiceId("Jupiter", question: ids[0]) == jupiter)
            let given = [#"{"choiceId":\#(jupiter)}"#, #"{"choiceIds":[\#(giants[0]),\#(giants[1])]}"#, #"{"value":true}"#,
                         #"{"text":"Paris"}"#, #"{"number":8}"#]
            for (id, answer) in zip(ids, given) {
                let body = #"{"questionId":\#(id),"answer":\#(answer)}"#
                async let onA = a.call(.post, answers, token: token, rawBody: body)
                async let onB = b.call(.post, answers, token: token, rawBody: body)
                let verdicts = try await [onA, onB].compactMap { $0["verdict"] as? String }.sorted()
                #expect(verdicts == ["alreadyAnswered", "correct"])
            }
            async let finishA = a.call(.post, "/api/v1/attempts/\(attemptId)/finish", token: token)
            async let finishB = b.call(.post, "/api/v1/attempts/\(attemptId)/finish", token: token)
            let finished = try await [finishA, finishB]
            #expect(finished.map(\.status) == [.ok, .ok])
            #expect(finished.map { $0["userPoints"] as? Int } == [8, 8])
            for instance in [a, b] {
                let me = try await instance.call(.get, "/api/v1/me", token: token)
                #expect(me["points"] as? Int == 8)
                #expect(me["quizzesFinished"] as? Int == 1)
            }
        }
    }

    @Test func aUsernameRegisteredOnBothAtOnceSucceedsOnce() async throws {
        try await withTwoInstances { a, b, _ in
            for round in 0..<5 {
                async let onA = a.call(.post, "/api/v1/users", rawBody: Self.registration("grace\(round)"))
                async let onB = b.call(.post, "/api/v1/users", rawBody: Self.registration("GRACE\(round)"))
                let statuses = try await [onA, onB].map(\.status.code).sorted()
                #expect(statuses == [201, 409])
            }
        }
    }

    static func registration(_ name: String) -> String {
        #"{"username":"\#(name)","firstName":"T","lastName":"U","password":"correct horse"}"#
    }

    @Test func theLeaderboardIsTheSameOnBoth() async throws {
        try await withTwoInstances { a, b, _ in
            let (quizId, questions) = try await a.firstQuiz()
            let firstId = try #require(questions.first?["id"] as? Int)
            // Seen (and kept) on both before anyone scores.
            let watcher = try await a.signUp("watcher")
            for instance in [a, b] { #expect(try await instance.call(.get, "/api/v1/leaderboard", token: watcher).status == .ok) }
            var tokens: [String] = []
            for (index, name) in ["ann", "bob", "cyd"].enumerated() {
                // Registered and played on alternating instances.
                let (here, there) = index % 2 == 0 ? (a, b) : (b, a)
                let token = try await here.signUp(name)
                tokens.append(token)
                let attemptId = try #require(try await here.call(.post, "/api/v1/quizzes/\(quizId)/attempts", token: token)["id"] as? Int)
                _ = try await there.call(.post, "/api/v1/attempts/\(attemptId)/answers", token: token,
                                         json: ["questionId": firstId, "answer": ["choiceId": try await here.choiceId(index == 1 ? "Jupiter" : "Mars", question: firstId, quiz: quizId)]])
                _ = try await there.call(.post, "/api/v1/attempts/\(attemptId)/finish", token: token)
            }
            let onA = try await a.call(.get, "/api/v1/leaderboard?limit=10", token: tokens[0])
            let onB = try await b.call(.get, "/api/v1/leaderboard?limit=10", token: tokens[0])
            #expect(onA.status == .ok)
            #expect(NSDictionary(dictionary: onA.json).isEqual(to: onB.json), "\(onA.raw) vs \(onB.raw)")
            let top = try #require(onA["top"] as? [[String: Any]], "\(onA.raw)")
            #expect(top.first?["username"] as? String == "bob")
        }
    }

    @Test func logInAttemptsAreCountedAcrossBoth() async throws {
        try await withTwoInstances { a, b, env in
            _ = try await a.signUp("ada")
            var refused = 0
            for attempt in 0..<14 {
                let instance = attempt % 2 == 0 ? a : b
                let response = try await instance.call(.post, "/api/v1/sessions", json: ["username": "ada", "password": "wrong \(attempt)"])
                if response.status == .tooManyRequests { refused += 1 }
            }
            // One log-in (by signUp) and 9 wrong passwords fill the 10 a minute; the rest are refused on either.
            #expect(refused == 5)
            env.time.advance(by: 61)
            #expect(try await b.call(.post, "/api/v1/sessions", json: ["username": "ada", "password": "correct horse"])["token"] != nil)
        }
    }

    @Test func aGameStartedOnOneIsPlayedOnBoth() async throws {
        try await withTwoInstances { a, b, env in
            let token = try await a.signUp("ada")
            _ = try await env.store.importBank(planetsBank(), at: env.time.now())
            let list = try await b.call(.get, "/api/v1/games")["questions"] as? [[String: Any]]
            let questionId = try #require(list?.first?["id"])
            let id = try #require(try await a.call(.post, "/api/v1/games", token: token, json: ["questionId": questionId])["id"] as? Int)
            func guess(_ instance: any TestClientProtocol, _ text: String) async throws -> JSONResponse {
                env.time.advance(by: 0.2)  // a person's pace, under the rate limit
                return try await instance.call(.post, "/api/v1/games/\(id)/guesses", token: token, json: ["text": text])
            }
            #expect(try await guess(a, "Earth")["verdict"] as? String == "found")
            #expect(try await guess(b, "earth")["verdict"] as? String == "alreadyFound")
            #expect(try await guess(b, "Mars")["verdict"] as? String == "found")
            #expect(try await guess(a, "mars")["verdict"] as? String == "alreadyFound")
            #expect((try await a.call(.get, "/api/v1/games/\(id)", token: token)["found"] as? [Any])?.count == 2)
            // The same item guessed on both at once is found once.
            env.time.advance(by: 0.2)
            for round in 0..<5 {
                let name = ["Mercury", "Venus", "Jupiter", "Saturn", "Uranus"][round]
                env.time.advance(by: 0.2)
                async let first = a.call(.post, "/api/v1/games/\(id)/guesses", token: token, json: ["text": name])
                async let second = b.call(.post, "/api/v1/games/\(id)/guesses", token: token, json: ["text": name])
                let verdicts = [try await first["verdict"] as? String, try await second["verdict"] as? String]
                #expect(verdicts.filter { $0 == "found" }.count == 1, "\(name): \(verdicts)")
                #expect(verdicts.filter { $0 == "alreadyFound" }.count == 1, "\(name): \(verdicts)")
            }
            var last: JSONResponse?
            last = try await guess(b, "Neptune")
            #expect(last?["state"] as? String == "finished")
            #expect(last?["foundCount"] as? Int == 8)
            let onA = try await a.call(.get, "/api/v1/games/\(id)", token: token)
            #expect(onA["state"] as? String == "finished")
            #expect((onA["found"] as? [Any])?.count == 8)
            let pointsA = try await a.call(.get, "/api/v1/me", token: token)["points"] as? Int
            let pointsB = try await b.call(.get, "/api/v1/me", token: token)["points"] as? Int
            #expect(pointsA == pointsB)
            #expect((pointsA ?? 0) > 0)
        }
    }

    @Test func aFilePreviewedOnOneIsImportedOnTheOther() async throws {
        try await withTwoInstances { a, b, env in
            let onA = try await WebImportPageTests().author(a, env)
            let preview = try await onA.postMultipart("/manage/import", [("action", "preview")], file: ("rome.gift", WebImportPageTests.gift))
            let token = try #require(WebImportPageTests.uploadToken(preview))
            let onB = onA.on(b)
            let stored = try await onB.postMultipart("/manage/import", [("upload", token), ("action", "import")], file: nil)
            #expect(stored.contains("Imported 2 questions"), "\(stored.html)")
            #expect(try await env.store.subjects().map(\.name).contains("History"))
            let twice = try await onA.postMultipart("/manage/import", [("upload", token), ("action", "import")], file: nil)
            #expect(twice.contains("no longer kept"), "imported once, on whichever instance")
        }
    }

    @Test func guessesAreLimitedAcrossBoth() async throws {
        try await withTwoInstances { a, b, env in
            let token = try await a.signUp("ada")
            _ = try await env.store.importBank(planetsBank(), at: env.time.now())
            let questionId = try #require((try await a.call(.get, "/api/v1/games")["questions"] as? [[String: Any]])?.first?["id"])
            let id = try #require(try await a.call(.post, "/api/v1/games", token: token, json: ["questionId": questionId])["id"] as? Int)
            var limited = 0
            for index in 0..<40 {
                let response = try await (index % 2 == 0 ? a : b).call(.post, "/api/v1/games/\(id)/guesses", token: token, json: ["text": "Pluto"])
                if response.status == .tooManyRequests {
                    limited += 1
                    #expect(response.errorCode == "too_many_guesses")
                }
            }
            #expect(limited == 40 - 15, "15 guesses a second in all, not 15 on each")
        }
    }

    /// Each instance keeps assignments and their players in memory: closing one early, or a
    /// player moving to another device, on one instance must hold on the other's next request.
    @Test func anAssignmentClosedOrASecretReplacedOnOneHoldsOnTheOtherAtOnce() async throws {
        try await withTwoInstances { a, b, env in
            let teacher = try await a.signUp("teacher")
            let (quizId, _) = try await a.firstQuiz()
            let closes = ISO8601DateFormatter().string(from: env.time.now() + 86_400)
            let created = try await a.call(.post, "/api/v1/assignments", token: teacher, json: ["quizId": quizId, "closesAt": closes])
            let (id, code) = (try #require(created["id"] as? Int), try #require(created["code"] as? String))
            let joined = try await a.call(.post, "/api/v1/assignments/join", json: ["code": code, "nickname": "Ada"])
            let header = try #require(joined["playerHeader"] as? String)
            func play(_ client: any TestClientProtocol, _ method: HTTPRequest.Method, _ path: String, _ value: String = header) async throws -> JSONResponse {
                try await client.play(method, "/api/v1/assignments/\(id)/play\(path)", header: value)
            }
            // B reads (and may keep) the assignment and the player first.
            #expect(try await play(b, .post, "/attempts").status == .ok)
            #expect(try await play(b, .get, "/question").status == .ok)

            let moved = try await a.call(.post, "/api/v1/assignments/rejoin",
                                         json: ["code": code, "nickname": "Ada", "rejoinCode": try #require(joined["rejoinCode"] as? String)])
            let newHeader = try #require(moved["playerHeader"] as? String)
            #expect(try await play(b, .get, "/question").errorCode == "not_a_player", "the old secret stops on the other instance too")
            #expect(try await play(b, .get, "/question", newHeader).status == .ok)
            // B keeps the player's attempts; finishing on A must show on B at once.
            #expect((try await play(b, .get, "", newHeader)["current"] as? Int) == 1)
            #expect(try await play(a, .post, "/finish", newHeader).status == .ok)
            let after = try await play(b, .get, "", newHeader)
            #expect(after["current"] == nil && (after["attempts"] as? [[String: Any]])?.first?["over"] as? Bool == true, "\(after.raw)")

            #expect(try await a.call(.post, "/api/v1/assignments/\(id)/close", token: teacher).status == .ok)
            let late = try await play(b, .get, "/question", newHeader)
            #expect(late.status == .forbidden && late.errorCode == "closed", "\(late.raw)")
        }
    }
}

extension TestClientProtocol {
    /// Registers ada and starts the first quiz: her token, the quiz's question ids, the attempt.
    func adaStartsTheFirstQuiz() async throws -> (token: String, questionIds: [Int], attemptId: Int) {
        let token = try await signUp("ada")
        let (quizId, questions) = try await firstQuiz()
        let attemptId = try #require(try await call(.post, "/api/v1/quizzes/\(quizId)/attempts", token: token)["id"] as? Int)
        return (token, questions.compactMap { $0["id"] as? Int }, attemptId)
    }

    /// A page fetched with the API token as the session cookie (the two are the same session).
    func page(_ path: String, token: String) async throws -> String {
        var headers = HTTPFields()
        headers[.cookie] = "quizbox_session=\(token)"
        return try await execute(uri: path, method: .get, headers: headers, body: nil) { String(buffer: $0.body) }
    }
}

/// Two applications on one fresh PostgreSQL database, each with its own pool, sharing one clock.
/// `env.store` is a third pool, like `quizbox import` run beside them.
func withTwoInstances(
    setup: TestingSetup = .router,
    configure: (inout ServerConfig) -> Void = { _ in },
    _ body: @escaping @Sendable (any TestClientProtocol, any TestClientProtocol, TestEnvironment) async throws -> Void
) async throws {
    try await TestPostgres.withFreshDatabase { url in
        var config = ServerConfig()
        config.database = url
        config.bcryptCost = 4
        config.loadStarterBank = false
        configure(&config)
        var logger = Logger(label: "quizbox-test")
        logger.logLevel = .warning
        let time = ManualTimeSource()
        let first = try await QuizDatabase.open(url, poolSize: 2, logger: logger)
        let second = try await QuizDatabase.open(url, poolSize: 2, logger: logger)
        let tools = try await QuizDatabase.open(url, poolSize: 1, logger: logger)
        async let preparedFirst: Void = prepare(database: first, config: config, time: time, logger: logger)
        async let preparedSecond: Void = prepare(database: second, config: config, time: time, logger: logger)
        _ = try await (preparedFirst, preparedSecond)
        let store = CachedStore(SQLStore(database: tools))
        _ = try await store.importBank(sampleBank(), at: time.now())
        let appA = try await buildApplication(config: config, database: first, time: time, logger: logger)
        let appB = try await buildApplication(config: config, database: second, time: time, logger: logger)
        let environment = TestEnvironment(store: store, time: time, config: config)
        do {
            try await appA.test(setup) { a in
                try await appB.test(setup) { b in try await body(a, b, environment) }
            }
        } catch {
            try? await tools.close()
            throw error
        }
        try await tools.close()
    }
}
