import Foundation
import QuizStore
import QuizTestSupport
import SQLKit
import Testing

/// Two real `quizbox serve` processes on one PostgreSQL database, players split between them, and
/// the instance that runs the game killed with SIGKILL (or stopped with SIGTERM, as a deploy does)
/// in the middle of a question.
@Suite(.enabled(if: TestPostgres.serverURL != nil, Comment(rawValue: TestPostgres.unavailable)))
struct LiveFailoverTests {
    @Test(arguments: [SIGKILL, SIGTERM])
    func whenTheOwnerGoesAwayMidQuestionAnotherInstanceFinishesTheGameWithEveryAcknowledgedAnswerCountedOnce(signal: Int32) async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try await TestPostgres.withFreshDatabase { url in
            let environment = ["QUIZBOX_BCRYPT_COST": "4"]
            // One after the other: the first loads the starter bank.
            let a = try RunningServer(arguments: ["--database", url], environment: environment, in: directory)
            let b = try RunningServer(arguments: ["--database", url], environment: environment, in: directory)
            defer { _ = b.stop() }
            let (portA, portB) = (try #require(a.baseURL.port), try #require(b.baseURL.port))

            let signUp = ["username": "host", "firstName": "Ho", "lastName": "St", "password": "runs the room"]
            #expect(try await a.request("POST", "/api/v1/users", json: signUp).0 == 201)
            let token = try #require(try await a.request("POST", "/api/v1/sessions", json: ["username": "host", "password": "runs the room"])
                .1["token"] as? String)
            let (created, game) = try await a.request("POST", "/api/v1/live-games", token: token,
                                                      json: ["quizId": 1, "secondsPerQuestion": 10, "leaderboardAfterEach": false])
            #expect(created == 201, "\(game)")
            let gameId = try #require((game["id"] as? NSNumber)?.int64Value)
            let pin = try #require(game["pin"] as? String)

            // The game was created on A, so A owns it; the host's screen is on A too.
            let cookie = "quizbox_session=\(token)"
            var host = LiveSocketClient(port: portA, cookie: cookie)
            defer { host.close() }
            try host.send(["type": "host", "game": gameId])
            #expect(try await host.next("hosting") != nil)

            // Two players on each instance.
            let ports = [portA, portA, portB, portB]
            var players = ports.map { LiveSocketClient(port: $0) }
            defer { for player in players { player.close() } }
            var secrets: [String] = []
            for (index, player) in players.enumerated() {
                try player.send(["type": "join", "pin": pin, "nickname": "P\(index + 1)"])
                secrets.append(try #require(try await player.next("joined")?["secret"] as? String))
            }
            try host.send(["type": "start"])
            var questions: [[String: Any]] = []
            for player in players { questions.append(try #require(try await player.next("question"))) }
            #expect(Set(questions.map { $0["text"] as? String }).count == 1, "everyone sees the same question")

            // Acknowledged answers, by player (1-based) and question.
            var acknowledged: Set<[Int]> = []
            func answer(_ index: Int, _ question: [String: Any]) async throws {
                let number = try #require(question["index"] as? Int)
                try players[index].send(["type": "answer", "question": number, "answer": Self.someAnswer(to: question)])
                if try await players[index].next("ack") != nil { acknowledged.insert([index + 1, number]) }
            }
            // On B (not the owner) both answer; on A one does.
            try await answer(2, questions[2])
            try await answer(3, questions[3])
            try await answer(0, questions[0])
            #expect(acknowledged.count == 3)

            // The owner dies mid-question (or is stopped: it lets go of the game first).
            a.process.signal(signal)
            if signal == SIGKILL { a.process.wait() }

            // Its players and its host come back through the other instance (what the load balancer does).
            for index in [0, 1] {
                players[index].close()
                players[index] = LiveSocketClient(port: portB)
                try players[index].send(["type": "resume", "pin": pin, "player": index + 1, "secret": secrets[index]])
                #expect(try await players[index].next("joined") != nil)
            }
            host.close()
            host = LiveSocketClient(port: portB, cookie: cookie)
            try host.send(["type": "host", "game": gameId])
            #expect(try await host.next("hosting") != nil)
            // The one who had answered is told so; then the one who had not answers on B. (In this
            // order: once all four have answered, the new owner may end the question at once.)
            try players[0].send(["type": "answer", "question": 0, "answer": Self.someAnswer(to: questions[0])])
            #expect(try await players[0].next("error")?["code"] as? String == "already-answered")
            try await answer(1, questions[1])
            #expect(acknowledged.count == 4)

            // B takes the game over within a few seconds and ends the question: everyone sees it.
            let reveal = try #require(try await host.next("reveal"))
            #expect(reveal["answered"] as? Int == 4)
            for player in players { #expect(try await player.next("result") != nil) }

            // The game goes on from B to its end.
            try host.send(["type": "next"])
            questions = []
            for player in players { questions.append(try #require(try await player.next("question"))) }
            #expect(questions.allSatisfy { $0["index"] as? Int == 1 })
            for index in players.indices { try await answer(index, questions[index]) }
            #expect(try await host.next("reveal")?["answered"] as? Int == 4)
            try host.send(["type": "end"])
            let ended = try #require(try await host.next("ended"))
            if signal == SIGTERM {
                let stopped = a.stop()
                #expect(stopped.status == 0, "\(stopped.log)")
            }
            let standings = try #require(ended["standings"] as? [[String: Any]])

            // In the database: every acknowledged answer once, nothing else, and the scores shown are theirs.
            let database = try await QuizDatabase.open(url, poolSize: 1)
            let rows: [any SQLRow]
            let endedAt: Int64?
            do {
                rows = try await database.read { db in
                    try await db.raw("""
                        SELECT player_id, question_index, COUNT(*) AS copies, SUM(points + bonus) AS total FROM live_answers
                        WHERE game_id = \(bind: gameId) GROUP BY player_id, question_index
                        """).all()
                }
                endedAt = try await database.read { db in
                    try await db.raw("SELECT ended_at FROM live_games WHERE id = \(bind: gameId)").first()?.decode(column: "ended_at", as: Int64?.self)
                }
                try await database.close()
            } catch {
                try? await database.close()
                throw error
            }
            let stored = try rows.map { [try $0.decode(column: "player_id", as: Int.self), try $0.decode(column: "question_index", as: Int.self)] }
            #expect(Set(stored) == acknowledged && stored.count == acknowledged.count)
            #expect(try rows.allSatisfy { try $0.decode(column: "copies", as: Int.self) == 1 })
            var totals: [Int: Int] = [:]
            for row in rows { totals[try row.decode(column: "player_id", as: Int.self), default: 0] += try row.decode(column: "total", as: Int.self) }
            #expect(standings.count == 4)
            for standing in standings {
                #expect(standing["score"] as? Int == totals[try #require(standing["id"] as? Int)] ?? 0, "\(standing)")
            }
            #expect(endedAt != nil)
        }
    }

    /// Some answer of the right shape for a question as players see it.
    static func someAnswer(to question: [String: Any]) -> [String: Any] {
        let first = (question["choices"] as? [[String: Any]])?.first?["id"] as? Int ?? 1
        switch question["kind"] as? String {
        case "singleChoice": return ["choice": first]
        case "multipleChoice": return ["choices": [first]]
        case "trueFalse": return ["value": true]
        case "numeric": return ["number": "1"]
        default: return ["text": "an answer"]
        }
    }
}
