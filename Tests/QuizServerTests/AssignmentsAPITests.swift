import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import QuizCore
import QuizServer
import QuizStore
import Testing

/// Assignments over the API, as a teacher and players without accounts meet them: set with a
/// deadline, joined with the code and a nickname, played question by question with nothing that
/// gives an answer away, the window kept by the server, and the report matching what was played.
@Suite struct AssignmentsAPITests {
    /// One question of each kind a teacher's quiz commonly holds, with what is right and what is not.
    nonisolated(unsafe) static let questions: [[String: Any]] = [
        ["kind": "singleChoice", "text": "Capital of Australia?", "points": 2, "explanation": "Canberra was built to be the capital.",
         "choices": [["text": "Canberra", "correct": true], ["text": "Sydney", "correct": false], ["text": "Perth", "correct": false]]],
        ["kind": "multipleChoice", "text": "Gas giants?",
         "choices": [["text": "Jupiter", "correct": true], ["text": "Saturn", "correct": true], ["text": "Venus", "correct": false]]],
        ["kind": "typedAnswer", "text": "Capital of France?", "answers": ["Paris"]],
        ["kind": "ordering", "text": "Oldest first", "order": ["Rome", "Paris", "Helsinki", "Brasília"]],
        ["kind": "matching", "text": "Capitals", "pairs": [["prompt": "Finland", "answer": "Helsinki"], ["prompt": "Sweden", "answer": "Stockholm"]],
         "extras": ["Oslo"]],
        ["kind": "trueFalse", "text": "The Sun is a star.", "answer": true],
    ]
    static let rightOrder = ["Rome", "Paris", "Helsinki", "Brasília"]
    static let kindCount = 6

    struct Player {
        var id: Int
        var secret: String
        var rejoinCode: String?
        var nickname: String
        var header: String { "\(id):\(secret)" }
    }

    struct Setup {
        let teacher: String
        let quizId: Int
        let id: Int
        let code: String
        var base: String { "/api/v1/assignments/\(id)" }
    }

    static func iso(_ date: Date) -> String { ISO8601DateFormatter().string(from: date) }

    /// A published quiz of `questions` (set by "writer") and an assignment of it closing in a day.
    func assign(_ client: any TestClientProtocol, _ env: TestEnvironment, settings: [String: Any] = [:],
                opensIn: TimeInterval? = nil, closesIn: TimeInterval = 86_400) async throws -> Setup {
        let (quizId, _) = try await QuestionKindsAPITests().publishedQuiz(client, env, questions: Self.questions)
        let teacher = try await client.call(.post, "/api/v1/sessions", json: ["username": "writer", "password": "correct horse"])["token"] as? String
        var body: [String: Any] = ["quizId": quizId, "closesAt": Self.iso(env.time.now() + closesIn), "settings": settings]
        if let opensIn { body["opensAt"] = Self.iso(env.time.now() + opensIn) }
        let created = try await client.call(.post, "/api/v1/assignments", token: teacher, json: body)
        #expect(created.status == .created, "\(created.raw)")
        return Setup(teacher: try #require(teacher), quizId: quizId, id: try #require(created["id"] as? Int),
                     code: try #require(created["code"] as? String))
    }

    func join(_ client: any TestClientProtocol, _ setup: Setup, _ nickname: String) async throws -> Player {
        let joined = try await client.call(.post, "/api/v1/assignments/join", json: ["code": setup.code, "nickname": nickname])
        #expect(joined.status == .created, "\(joined.raw)")
        return Player(id: try #require(joined["playerId"] as? Int), secret: try #require(joined["secret"] as? String),
                      rejoinCode: joined["rejoinCode"] as? String, nickname: nickname)
    }

    /// The rest of the flow, questions shown and answered by kind. `right`: every answer right, else every one wrong.
    func playThrough(_ client: any TestClientProtocol, _ setup: Setup, _ player: Player, right: Bool,
                     check: (JSONResponse, JSONResponse) throws -> Void = { _, _ in }) async throws {
        let started = try await client.play(.post, setup.base + "/play/attempts", player: player)
        #expect(started.status == .ok, "\(started.raw)")
        for _ in 0..<Self.kindCount {
            let next = try await client.play(.get, setup.base + "/play/question", player: player)
            let question = try #require(next["question"] as? [String: Any], "\(next.raw)")
            let answered = try await client.play(.post, setup.base + "/play/answers", player: player,
                                                 json: ["position": next["position"] as? Int ?? 0, "answer": Self.answer(to: question, right: right)])
            #expect(answered.status == .ok, "\(answered.raw)")
            try check(next, answered)
        }
        let done = try await client.play(.get, setup.base + "/play/question", player: player)
        #expect(done["done"] as? Bool == true, "\(done.raw)")
    }

    /// The answer a player who knows the texts gives, in the ids the question was shown with.
    static func answer(to question: [String: Any], right: Bool) -> [String: Any] {
        func ids(_ key: String) -> [String: Int] {
            Dictionary(((question[key] as? [[String: Any]]) ?? []).map { ($0["text"] as? String ?? "", $0["id"] as? Int ?? 0) }) { a, _ in a }
        }
        switch question["kind"] as? String {
        case "singleChoice": return ["choiceId": ids("choices")[right ? "Canberra" : "Sydney"] ?? 0]
        case "multipleChoice": return ["choiceIds": (right ? ["Jupiter", "Saturn"] : ["Venus"]).map { ids("choices")[$0] ?? 0 }]
        case "typedAnswer": return ["text": right ? "paris" : "Lyon"]
        case "ordering": return ["order": (right ? rightOrder : rightOrder.reversed()).map { ids("items")[$0] ?? 0 }]
        case "matching":
            let prompts = ids("prompts"), options = ids("options")
            return ["matches": [String(prompts["Finland"] ?? 0): options[right ? "Helsinki" : "Oslo"] ?? 0,
                                String(prompts["Sweden"] ?? 0): options[right ? "Stockholm" : "Oslo"] ?? 0]]
        default: return ["value": right]
        }
    }

    /// What must never be in a question as a player is shown it before answering.
    static func expectNoAnswer(in raw: String, question: [String: Any]) {
        for secret in ["\"correct\"", "\"isCorrect\"", "\"fraction\"", "\"correctAnswer\"", "\"explanation\"", "\"pairs\"", "\"answers\"",
                       "\"order\"", "\"value\"", "\"tolerance\"", "Canberra was built"] {
            #expect(!raw.contains(secret), "\(secret) in \(raw)")
        }
        switch question["kind"] as? String {
        case "typedAnswer": #expect(!raw.contains("Paris"), "\(raw)")
        case "ordering":
            let items = (question["items"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? Int }
            #expect(items.count == 4 && items == items.sorted(), "items are listed by their ids, not in the right order: \(raw)")
        case "matching":
            // Prompts and answers apart, each only an id and a text: nothing pairs them.
            for part in (question["prompts"] as? [[String: Any]] ?? []) + (question["options"] as? [[String: Any]] ?? []) {
                #expect(Set(part.keys) == ["id", "text"], "\(raw)")
            }
            #expect((question["options"] as? [[String: Any]])?.count == 3)
        default: break
        }
    }

    // MARK: Creating

    @Test func creatingWithDefaultsGivesACodeAPlayerLinkAndTheDefaultSettings() async throws {
        try await withApp { client, env in
            let setup = try await assign(client, env)
            let read = try await client.call(.get, setup.base, token: setup.teacher)
            #expect(read.status == .ok, "\(read.raw)")
            let assignment = try #require(read["assignment"] as? [String: Any])
            #expect(setup.code.count == 6 && Int(setup.code) != nil)
            #expect(assignment["playerPath"] as? String == "/a/\(setup.code)")
            #expect(assignment["opensAt"] as? String == Self.iso(env.time.now()), "opens now by default: \(read.raw)")
            #expect(assignment["window"] as? String == "open")
            #expect(assignment["title"] as? String == "Kinds")
            #expect(assignment["questionCount"] as? Int == Self.kindCount)
            let settings = try #require(assignment["settings"] as? [String: Any])
            #expect(settings["attemptsAllowed"] as? Int == 1 && settings["grading"] as? String == "highest")
            #expect(settings["timing"] as? String == "none" && settings["speedPoints"] as? Bool == false)
            #expect(settings["answersShown"] as? String == "afterFinishing" && settings["leaderboardPoints"] as? Bool == false)
            #expect(read["joined"] as? Int == 0)
            let mine = try await client.call(.get, "/api/v1/assignments", token: setup.teacher)["assignments"] as? [[String: Any]] ?? []
            #expect(mine.map { $0["code"] as? String } == [setup.code])
            #expect(mine.first?["playerCount"] as? Int == 0)
        }
    }

    @Test func badFieldsAreRefusedNamingEachField() async throws {
        try await withApp { client, env in
            let setup = try await assign(client, env)
            let soon = Self.iso(env.time.now() + 3600)
            func create(_ body: [String: Any]) async throws -> JSONResponse {
                try await client.call(.post, "/api/v1/assignments", token: setup.teacher, json: body)
            }
            let cases: [([String: Any], HTTPResponse.Status, String, String)] = [
                (["quizId": setup.quizId, "closesAt": Self.iso(env.time.now() - 60)], .unprocessableContent, "invalid_assignment", "closesAt"),
                (["quizId": setup.quizId, "closesAt": soon, "opensAt": Self.iso(env.time.now() + 7200)], .unprocessableContent,
                 "invalid_assignment", "closesAt"),
                (["quizId": setup.quizId, "closesAt": soon, "settings": ["attemptsAllowed": 11]], .unprocessableContent,
                 "invalid_assignment", "attemptsAllowed"),
                (["quizId": setup.quizId, "closesAt": soon, "settings": ["speedPoints": true]], .unprocessableContent,
                 "invalid_assignment", "speedPoints"),
                (["quizId": setup.quizId, "closesAt": soon, "title": "   "], .unprocessableContent, "invalid_assignment", "title"),
                (["quizId": setup.quizId], .badRequest, "invalid_json", "closesAt"),
                (["quizId": setup.quizId, "closesAt": soon, "settings": ["grading": "best"]], .badRequest, "invalid_json", "settings.grading"),
                (["quizId": 999_999, "closesAt": soon], .notFound, "not_found", "quizId"),
            ]
            // Not a date: refused before the use case sees it, saying it was a date (the runtime's date reader names no field).
            let notADate = try await create(["quizId": setup.quizId, "closesAt": "tomorrow"])
            #expect(notADate.status == .badRequest && notADate.errorCode == "invalid_json", "\(notADate.raw)")
            #expect(notADate.raw.contains("A date is not valid") && notADate.raw.contains("'tomorrow'"), "\(notADate.raw)")
            // JavaScript's toISOString() sends milliseconds: read as the same moment.
            let millis = try await create(["quizId": setup.quizId, "closesAt": "2027-01-20T14:00:00.000Z"])
            #expect(millis.status == .created, "\(millis.raw)")
            #expect(millis.raw.contains(#""closesAt":"2027-01-20T14:00:00Z""#), "\(millis.raw)")
            for (body, status, code, field) in cases {
                let refused = try await create(body)
                #expect(refused.status == status, "\(body): \(refused.raw)")
                #expect(refused.errorCode == code, "\(body): \(refused.raw)")
                #expect(refused.errorField == field, "\(body): \(refused.raw)")
            }
            // Every broken rule at once, each with its field.
            let many = try await create(["quizId": setup.quizId, "closesAt": Self.iso(env.time.now() - 60), "title": "",
                                         "settings": ["attemptsAllowed": 0]])
            let problems = (many["error"] as? [String: Any])?["problems"] as? [[String: Any]] ?? []
            #expect(problems.compactMap { $0["path"] as? String } == ["title", "closesAt", "attemptsAllowed"], "\(many.raw)")
            let listed = try await client.call(.get, "/api/v1/assignments", token: setup.teacher)["assignments"] as? [[String: Any]]
            #expect(listed?.count == 2, "nothing refused was stored (the first and the one in milliseconds)")
            #expect(try await client.call(.post, "/api/v1/assignments", json: ["quizId": setup.quizId, "closesAt": soon]).status == .unauthorized)
        }
    }

    // MARK: Playing

    @Test func aPlayerWithoutAnAccountPlaysEveryKindSeeingNoAnswerBeforeAnsweringAndFeedbackAfterEach() async throws {
        try await withApp { client, env in
            let setup = try await assign(client, env, settings: ["answersShown": "afterEachQuestion", "shuffleAnswers": true,
                                                                 "shuffleQuestions": true])
            let ada = try await join(client, setup, "Ada")
            #expect(ada.rejoinCode?.count == 6)
            var kinds: Set<String> = []
            try await playThrough(client, setup, ada, right: true) { next, answered in
                let question = next["question"] as? [String: Any] ?? [:]
                kinds.insert(question["kind"] as? String ?? "")
                Self.expectNoAnswer(in: next.raw, question: question)
                let feedback = answered["feedback"] as? [String: Any]
                #expect(feedback?["verdict"] as? String == "correct", "\(question["kind"]!): \(answered.raw)")
                #expect(feedback?["correctAnswer"] != nil, "\(answered.raw)")
            }
            #expect(kinds == ["singleChoice", "multipleChoice", "typedAnswer", "ordering", "matching", "trueFalse"])
            let result = try await client.play(.post, setup.base + "/play/finish", player: ada)
            #expect(result.status == .ok, "\(result.raw)")
            #expect(result["grade"] as? Double == 1)
            #expect(result["answersShown"] as? Bool == true)
            let lines = result["lines"] as? [[String: Any]] ?? []
            #expect(lines.count == Self.kindCount && lines.allSatisfy { $0["verdict"] as? String == "correct" }, "\(result.raw)")
            #expect(lines.allSatisfy { $0["given"] is String && $0["correctAnswer"] != nil }, "\(result.raw)")
            // Answering again changes nothing.
            let again = try await client.play(.post, setup.base + "/play/answers", player: ada, json: ["position": 1, "answer": ["value": true]])
            #expect(again.status == .forbidden || again.status == .conflict, "\(again.raw)")
        }
    }

    @Test func answersAreShownOnlyWhenTheSettingsSay() async throws {
        try await withApp { client, env in
            let setup = try await assign(client, env, settings: ["answersShown": "afterClose"])
            let ada = try await join(client, setup, "Ada")
            try await playThrough(client, setup, ada, right: false) { _, answered in
                #expect(answered["feedback"] == nil, "\(answered.raw)")
                #expect(!answered.raw.contains("correct"), "\(answered.raw)")
            }
            let early = try await client.play(.get, setup.base + "/play/result", player: ada)
            #expect(early.status == .conflict && early.errorCode == "not_finished", "results come after finishing: \(early.raw)")
            let finished = try await client.play(.post, setup.base + "/play/finish", player: ada)
            #expect(finished["answersShown"] as? Bool == false, "\(finished.raw)")
            #expect(finished["grade"] as? Double == 0)
            for secret in ["\"correctAnswer\"", "\"verdict\"", "\"credit\"", "\"explanation\"", "Canberra was built"] {
                #expect(!finished.raw.contains(secret), "\(secret) before the close: \(finished.raw)")
            }
            // What they answered is theirs to see.
            #expect((finished["lines"] as? [[String: Any]])?.contains { $0["given"] as? String == "Lyon" } == true, "\(finished.raw)")
            #expect(try await client.call(.post, setup.base + "/close", token: setup.teacher).status == .ok)
            let after = try await client.play(.get, setup.base + "/play/result", player: ada)
            #expect(after["answersShown"] as? Bool == true, "\(after.raw)")
            let lines = after["lines"] as? [[String: Any]] ?? []
            #expect(lines.allSatisfy { $0["verdict"] as? String == "wrong" && $0["correctAnswer"] != nil }, "\(after.raw)")
            #expect(after.raw.contains("Canberra was built"))
        }
    }

    @Test func afterFinishingTheAnswersComeWithTheResultNotBefore() async throws {
        try await withApp { client, env in
            let setup = try await assign(client, env)
            let ada = try await join(client, setup, "Ada")
            try await playThrough(client, setup, ada, right: true) { _, answered in
                #expect(answered["feedback"] == nil, "\(answered.raw)")
            }
            let result = try await client.play(.post, setup.base + "/play/finish", player: ada)
            #expect(result["answersShown"] as? Bool == true)
            #expect((result["lines"] as? [[String: Any]])?.allSatisfy { $0["verdict"] as? String == "correct" } == true, "\(result.raw)")
        }
    }

    @Test func aSecondDeviceRejoinsWhereThePlayerWasAndTheOldSecretStopsWorking() async throws {
        try await withApp { client, env in
            let setup = try await assign(client, env)
            let phone = try await join(client, setup, "Ada")
            _ = try await client.play(.post, setup.base + "/play/attempts", player: phone)
            let first = try await client.play(.get, setup.base + "/play/question", player: phone)
            let question = try #require(first["question"] as? [String: Any])
            _ = try await client.play(.post, setup.base + "/play/answers", player: phone,
                                      json: ["position": 1, "answer": Self.answer(to: question, right: true)])

            let wrong = try await client.call(.post, "/api/v1/assignments/rejoin",
                                              json: ["code": setup.code, "nickname": "Ada", "rejoinCode": "000000"])
            #expect(wrong.status == .forbidden && wrong.errorCode == "bad_rejoin", "\(wrong.raw)")
            let rejoined = try await client.call(.post, "/api/v1/assignments/rejoin",
                                                 json: ["code": setup.code, "nickname": "ada", "rejoinCode": try #require(phone.rejoinCode)])
            #expect(rejoined.status == .ok, "\(rejoined.raw)")
            #expect(rejoined["playerId"] as? Int == phone.id)
            let laptop = Player(id: phone.id, secret: try #require(rejoined["secret"] as? String), nickname: "Ada")
            #expect(laptop.secret != phone.secret)
            #expect(rejoined["playerHeader"] as? String == laptop.header)

            let old = try await client.play(.get, setup.base + "/play", player: phone)
            #expect(old.status == .forbidden && old.errorCode == "not_a_player", "\(old.raw)")
            let next = try await client.play(.get, setup.base + "/play/question", player: laptop)
            #expect(next["position"] as? Int == 2, "carries on where the phone left off: \(next.raw)")
            let resumed = try await client.call(.post, "/api/v1/assignments/resume", json: ["playerId": laptop.id, "secret": laptop.secret])
            #expect(resumed.status == .ok && resumed["nickname"] as? String == "Ada" && resumed["rejoinCode"] == nil, "\(resumed.raw)")
            let stale = try await client.call(.post, "/api/v1/assignments/resume", json: ["playerId": phone.id, "secret": phone.secret])
            #expect(stale.status == .forbidden, "\(stale.raw)")
            let taken = try await client.call(.post, "/api/v1/assignments/join", json: ["code": setup.code, "nickname": "ADA"])
            #expect(taken.status == .conflict && taken.errorCode == "nickname_taken" && taken.errorField == "nickname", "\(taken.raw)")
            let unknown = try await client.call(.post, "/api/v1/assignments/join", json: ["code": "000001", "nickname": "Bo"])
            #expect(unknown.status == .notFound && unknown.errorField == "code", "\(unknown.raw)")
            let blank = try await client.call(.post, "/api/v1/assignments/join", json: ["code": setup.code, "nickname": "  "])
            #expect(blank.status == .unprocessableContent && blank.errorCode == "invalid_nickname", "\(blank.raw)")
        }
    }

    @Test func theWindowIsKeptByTheServerAndTheTeacherMovesIt() async throws {
        try await withApp { client, env in
            let setup = try await assign(client, env, opensIn: 3600, closesIn: 7200)
            let ada = try await join(client, setup, "Ada")
            let standing = try await client.play(.get, setup.base + "/play", player: ada)
            #expect((standing["assignment"] as? [String: Any])?["window"] as? String == "notOpen", "\(standing.raw)")
            let early = try await client.play(.post, setup.base + "/play/attempts", player: ada)
            #expect(early.status == .forbidden && early.errorCode == "not_open", "\(early.raw)")

            env.time.advance(by: 3600)
            #expect(try await client.play(.post, setup.base + "/play/attempts", player: ada).status == .ok)
            let next = try await client.play(.get, setup.base + "/play/question", player: ada)
            let question = try #require(next["question"] as? [String: Any])
            #expect(try await client.play(.post, setup.base + "/play/answers", player: ada,
                                          json: ["position": 1, "answer": Self.answer(to: question, right: true)]).status == .ok)

            // Closed early: nothing more is taken, the attempt keeps its answer.
            let closed = try await client.call(.post, setup.base + "/close", token: setup.teacher)
            #expect(closed["window"] as? String == "closed", "\(closed.raw)")
            let late = try await client.play(.get, setup.base + "/play/question", player: ada)
            #expect(late.status == .forbidden && late.errorCode == "closed", "\(late.raw)")
            let lateJoin = try await client.call(.post, "/api/v1/assignments/join", json: ["code": setup.code, "nickname": "Bo"])
            #expect(lateJoin.status == .forbidden && lateJoin.errorCode == "closed", "\(lateJoin.raw)")
            let cutOff = try await client.play(.get, setup.base + "/play/result", player: ada)
            #expect((cutOff["attempts"] as? [[String: Any]])?.first?["points"] as? Double == 2, "the answer before the close counts: \(cutOff.raw)")

            let past = try await client.call(.post, setup.base + "/extend", token: setup.teacher, json: ["closesAt": Self.iso(env.time.now() - 1)])
            #expect(past.status == .unprocessableContent && past.errorField == "closesAt", "\(past.raw)")
            // Reopened: the attempt the close cut off carries on from its next question.
            let reopened = try await client.call(.post, setup.base + "/reopen", token: setup.teacher,
                                                 json: ["closesAt": Self.iso(env.time.now() + 600)])
            #expect(reopened["window"] as? String == "open", "\(reopened.raw)")
            let carriedOn = try await client.play(.get, setup.base + "/play/question", player: ada)
            #expect(carriedOn["position"] as? Int == 2, "\(carriedOn.raw)")
            let extended = try await client.call(.post, setup.base + "/extend", token: setup.teacher,
                                                 json: ["closesAt": Self.iso(env.time.now() + 1200)])
            #expect(extended["closesAt"] as? String == Self.iso(env.time.now() + 1200))
            env.time.advance(by: 1200)
            let afterDeadline = try await client.play(.post, setup.base + "/play/answers", player: ada,
                                                      json: ["position": 2, "answer": ["value": true]])
            #expect(afterDeadline.status == .forbidden && afterDeadline.errorCode == "closed", "\(afterDeadline.raw)")
        }
    }

    @Test func attemptsAreLimitedAndGradedByTheRule() async throws {
        try await withApp { client, env in
            let setup = try await assign(client, env, settings: ["attemptsAllowed": 2, "grading": "highest"])
            let ada = try await join(client, setup, "Ada")
            try await playThrough(client, setup, ada, right: false)
            let first = try await client.play(.post, setup.base + "/play/finish", player: ada)
            #expect(first["grade"] as? Double == 0 && first["attemptsLeft"] as? Int == 1, "\(first.raw)")
            try await playThrough(client, setup, ada, right: true)
            let second = try await client.play(.post, setup.base + "/play/finish", player: ada)
            #expect(second["grade"] as? Double == 1 && second["attempt"] as? Int == 2, "\(second.raw)")
            let points = (second["attempts"] as? [[String: Any]])?.compactMap { $0["points"] as? Double }
            #expect(points == [0, 7], "2 + 1 + 1 + 1 + 1 + 1: \(second.raw)")
            let third = try await client.play(.post, setup.base + "/play/attempts", player: ada)
            #expect(third.status == .conflict && third.errorCode == "no_attempts_left", "\(third.raw)")
            let earlier = try await client.play(.get, setup.base + "/play/result?attempt=1", player: ada)
            #expect(earlier["attempt"] as? Int == 1 && earlier["grade"] as? Double == 1, "the grade is the highest's: \(earlier.raw)")
            let standing = try await client.play(.get, setup.base + "/play", player: ada)
            #expect(standing["attemptsLeft"] as? Int == 0 && (standing["attempts"] as? [Any])?.count == 2, "\(standing.raw)")
        }
    }

    @Test func aQuestionsTimeIsKeptWhenTheAssignmentHasAClock() async throws {
        try await withApp { client, env in
            let setup = try await assign(client, env, settings: ["timing": "questionsOwn"])
            let ada = try await join(client, setup, "Ada")
            _ = try await client.play(.post, setup.base + "/play/attempts", player: ada)
            let first = try await client.play(.get, setup.base + "/play/question", player: ada)
            // The clock starts when it is shown (kept to the second), 30 s for a question without a limit of its own.
            #expect((29...30).contains(first["secondsLeft"] as? Int ?? 0), "\(first.raw)")
            let shownAt = try #require((first["shownAt"] as? String).flatMap { ISO8601DateFormatter().date(from: $0) })
            #expect(first["deadline"] as? String == Self.iso(shownAt + 30), "\(first.raw)")
            let zero = try await client.play(.post, setup.base + "/play/answers", player: ada, json: ["position": 0, "answer": ["value": true]])
            #expect(zero.status == .unprocessableContent && zero.errorField == "position", "positions count from 1: \(zero.raw)")
            let beyond = try await client.play(.post, setup.base + "/play/answers", player: ada, json: ["position": 2, "answer": ["value": true]])
            #expect(beyond.status == .conflict && beyond.errorCode == "question_not_shown", "\(beyond.raw)")
            env.time.advance(by: 40)
            let late = try await client.play(.post, setup.base + "/play/answers", player: ada, json: ["position": 1, "answer": ["value": true]])
            #expect(late.status == .conflict && late.errorCode == "time_up", "\(late.raw)")
            let next = try await client.play(.get, setup.base + "/play/question", player: ada)
            #expect(next["position"] as? Int == 2, "a question whose time is up is passed: \(next.raw)")
        }
    }

    // MARK: Who sees what

    @Test func anotherTeacherCanNeitherSeeNorChangeIt() async throws {
        try await withApp { client, env in
            let setup = try await assign(client, env)
            let other = try await client.signUp("mallory")
            let later = ["closesAt": Self.iso(env.time.now() + 99_999)]
            for (method, path, body) in [(HTTPRequest.Method.get, "", nil), (.post, "/close", nil), (.post, "/extend", later),
                                         (.post, "/reopen", later), (.get, "/report", nil), (.get, "/report.csv", nil)] as [(HTTPRequest.Method, String, [String: Any]?)] {
                let refused = try await client.call(method, setup.base + path, token: other, json: body)
                #expect(refused.status == .notFound && refused.errorCode == "not_found", "\(path): \(refused.raw)")
            }
            #expect((try await client.call(.get, "/api/v1/assignments", token: other)["assignments"] as? [Any])?.isEmpty == true)
            let still = try await client.call(.get, setup.base, token: setup.teacher)
            #expect((still["assignment"] as? [String: Any])?["window"] as? String == "open", "nothing changed: \(still.raw)")
        }
    }

    @Test func aPlayerSeesOnlyTheirOwnAttempt() async throws {
        try await withApp { client, env in
            let setup = try await assign(client, env, settings: ["answersShown": "afterEachQuestion"])
            let ada = try await join(client, setup, "Ada")
            let bo = try await join(client, setup, "Bo")
            try await playThrough(client, setup, bo, right: true)
            _ = try await client.play(.post, setup.base + "/play/finish", player: bo)
            // Bo's id with Ada's secret, a made-up secret, no pass, a malformed one.
            let forged = try await client.play(.get, setup.base + "/play/result", player: Player(id: bo.id, secret: ada.secret, nickname: "Bo"))
            #expect(forged.status == .forbidden && forged.errorCode == "not_a_player", "\(forged.raw)")
            #expect(!forged.raw.contains("lines"))
            let guessed = try await client.play(.get, setup.base + "/play/result", player: Player(id: bo.id, secret: "guess", nickname: "Bo"))
            #expect(guessed.status == .forbidden, "\(guessed.raw)")
            let nobody = try await client.call(.get, setup.base + "/play/result")
            #expect(nobody.status == .unauthorized && nobody.errorCode == "unauthenticated", "\(nobody.raw)")
            let malformed = try await client.play(.get, setup.base + "/play/result", header: "Bo")
            #expect(malformed.status == .unauthorized && malformed.errorCode == "invalid_player", "\(malformed.raw)")
            // Ada's own: nothing over yet.
            let own = try await client.play(.get, setup.base + "/play/result", player: ada)
            #expect(own.status == .conflict && own.errorCode == "not_finished", "\(own.raw)")
            // A signed-in user who did not join is no player; the teacher is not one either.
            let eve = try await client.signUp("eve")
            let stranger = try await client.call(.get, setup.base + "/play/result", token: eve)
            #expect(stranger.status == .forbidden && stranger.errorCode == "not_a_player", "\(stranger.raw)")
            // A player of another assignment is no player of this one.
            let elsewhere = try await client.call(.post, "/api/v1/assignments", token: setup.teacher,
                                                  json: ["quizId": setup.quizId, "closesAt": Self.iso(env.time.now() + 600)])
            let otherSetup = Setup(teacher: setup.teacher, quizId: setup.quizId, id: try #require(elsewhere["id"] as? Int),
                                   code: try #require(elsewhere["code"] as? String))
            let cy = try await join(client, otherSetup, "Cy")
            let crossed = try await client.play(.get, setup.base + "/play", player: cy)
            #expect(crossed.status == .forbidden, "\(crossed.raw)")
        }
    }

    @Test func aSignedInPlayerJoinsUnderTheirUsernameAndPlaysWithTheirSession() async throws {
        try await withApp { client, env in
            let setup = try await assign(client, env)
            let ada = try await client.signUp("ada_l")
            let joined = try await client.call(.post, "/api/v1/assignments/join", token: ada, json: ["code": setup.code, "nickname": "Whoever"])
            #expect(joined.status == .created && joined["nickname"] as? String == "ada_l", "\(joined.raw)")
            let again = try await client.call(.post, "/api/v1/assignments/join", token: ada, json: ["code": setup.code])
            #expect(again["playerId"] as? Int == joined["playerId"] as? Int, "joining again is the same player: \(again.raw)")
            #expect(try await client.call(.post, setup.base + "/play/attempts", token: ada).status == .ok)
            let standing = try await client.call(.get, setup.base + "/play", token: ada)
            #expect(standing["signedIn"] as? Bool == true && standing["current"] as? Int == 1, "\(standing.raw)")
            let bad = try await client.call(.post, "/api/v1/assignments/join", token: "not-a-token", json: ["code": setup.code])
            #expect(bad.status == .unauthorized, "a bad session is refused, not ignored: \(bad.raw)")
        }
    }

    // MARK: The teacher's view

    @Test func theTeacherSeesItFillUpAndTheReportMatchesWhatWasPlayed() async throws {
        try await withApp { client, env in
            let setup = try await assign(client, env)
            let ada = try await join(client, setup, "Ada")
            let bo = try await join(client, setup, "Bo")
            _ = try await join(client, setup, "Cy")
            try await playThrough(client, setup, ada, right: true)
            env.time.advance(by: 90)
            _ = try await client.play(.post, setup.base + "/play/finish", player: ada)
            try await playThrough(client, setup, bo, right: false)

            let progress = try await client.call(.get, setup.base, token: setup.teacher)
            #expect(progress["joined"] as? Int == 3 && progress["started"] as? Int == 2 && progress["finished"] as? Int == 1, "\(progress.raw)")
            let players = progress["players"] as? [[String: Any]] ?? []
            #expect(players.map { $0["state"] as? String } == ["finished", "playing", "joined"], "\(progress.raw)")
            #expect(players[1]["answeredNow"] as? Int == Self.kindCount)

            _ = try await client.play(.post, setup.base + "/play/finish", player: bo)
            let report = try await client.call(.get, setup.base + "/report", token: setup.teacher)
            #expect(report.status == .ok, "\(report.raw)")
            let rows = report["players"] as? [[String: Any]] ?? []
            #expect(rows.map { $0["nickname"] as? String } == ["Ada", "Bo", "Cy"])
            #expect(rows.map { $0["grade"] as? Double } == [1, 0, nil])
            #expect(rows[0]["timeTakenSeconds"] as? Double == 90, "\(report.raw)")
            #expect((rows[0]["credits"] as? [[String: Any]])?.count == Self.kindCount)
            #expect((rows[0]["credits"] as? [[String: Any]])?.allSatisfy { $0["credit"] as? Double == 1 } == true)
            let questions = report["questions"] as? [[String: Any]] ?? []
            #expect(questions.count == Self.kindCount)
            #expect(questions.allSatisfy { $0["answered"] as? Int == 2 && $0["right"] as? Int == 1 }, "\(report.raw)")
            let australia = questions.first { $0["kind"] as? String == "singleChoice" }
            #expect((australia?["commonWrongAnswers"] as? [[String: Any]])?.first?["answer"] as? String == "Sydney", "\(report.raw)")
            let typed = questions.first { $0["kind"] as? String == "typedAnswer" }
            #expect((typed?["commonWrongAnswers"] as? [[String: Any]])?.first?["answer"] as? String == "Lyon")

            let csv = try await client.call(.get, setup.base + "/report.csv", token: setup.teacher)
            #expect(csv.status == .ok)
            #expect(csv.headers[.contentType]?.hasPrefix("text/csv") == true)
            #expect(csv.headers[.contentDisposition] == "attachment; filename=\"assignment-\(setup.code).csv\"")
            let lines = csv.raw.split(separator: "\r\n").map(String.init)
            #expect(lines.first?.hasPrefix("nickname,signed_in,state,attempts,grade_percent,seconds,q1_percent") == true, "\(csv.raw)")
            #expect(lines.count == 4)
            #expect(lines[1].hasPrefix("Ada,no,finished,1,100.0,90,100.0"), "\(csv.raw)")
            #expect(lines[2].hasPrefix("Bo,no,finished,1,0.0,"), "\(csv.raw)")
            #expect(lines[3] == "Cy,no,joined,0,,," + String(repeating: ",", count: Self.kindCount - 1), "\(csv.raw)")
            let semicolons = try await client.call(.get, setup.base + "/report.csv?separator=semicolon", token: setup.teacher)
            #expect(semicolons.raw.hasPrefix("\u{FEFF}nickname;signed_in"), "\(semicolons.raw)")
            #expect(semicolons.raw.contains("Ada;no;finished;1;100,0;90"))
        }
    }

    // MARK: Limits

    @Test func joiningIsLimitedPerAddressAndBodiesAreBounded() async throws {
        try await withApp(configure: { $0.liveJoinsPerAddressPerMinute = 3 }) { client, env in
            let setup = try await assign(client, env)
            for nickname in ["A", "B", "C"] { _ = try await join(client, setup, nickname) }
            let limited = try await client.call(.post, "/api/v1/assignments/join", json: ["code": setup.code, "nickname": "D"])
            #expect(limited.status == .tooManyRequests && limited.errorCode == "rate_limited", "\(limited.raw)")
            #expect(limited.headers[.retryAfter] == "60")
            let guess = try await client.call(.post, "/api/v1/assignments/rejoin", json: ["code": setup.code, "nickname": "A", "rejoinCode": "123456"])
            #expect(guess.status == .tooManyRequests, "rejoin guesses count too: \(guess.raw)")
            let huge = try await client.call(.post, setup.base + "/play/answers",
                                             json: ["position": 1, "answer": ["text": String(repeating: "a", count: 2 << 20)]])
            #expect(huge.status == .contentTooLarge, "\(huge.status)")
            env.time.advance(by: 61)
            #expect(try await client.call(.post, "/api/v1/assignments/join", json: ["code": setup.code, "nickname": "D"]).status == .created)
        }
    }

    @Test func aClassAssignmentTakesOnlyTheClassStudentsSignedIn() async throws {
        try await withApp { client, env in
            let (quizId, _) = try await QuestionKindsAPITests().publishedQuiz(client, env, questions: Self.questions)
            let teacher = try #require(try await client.call(.post, "/api/v1/sessions",
                                                             json: ["username": "writer", "password": "correct horse"])["token"] as? String)
            let (ann, bob) = (try await client.signUp("ann"), try await client.signUp("bob"))
            let made = try await client.call(.post, "/api/v1/classes", token: teacher, json: ["name": "7B"])
            let classId = try #require(made["id"] as? Int)
            _ = try await client.call(.post, "/api/v1/classes/join", token: ann, json: ["code": try #require(made["code"] as? String)])
            let soon = Self.iso(env.time.now() + 86_400)

            let notMine = try await client.call(.post, "/api/v1/assignments", token: bob,
                                                json: ["quizId": quizId, "closesAt": soon, "classId": classId])
            #expect(notMine.status == .forbidden && notMine.errorCode == "not_in_class" && notMine.errorField == "classId", "\(notMine.raw)")
            let created = try await client.call(.post, "/api/v1/assignments", token: teacher,
                                                json: ["quizId": quizId, "closesAt": soon, "classId": classId])
            #expect(created.status == .created && created["classId"] as? Int == classId, "\(created.raw)")
            let (id, code) = (try #require(created["id"] as? Int), try #require(created["code"] as? String))

            let anonymous = try await client.call(.post, "/api/v1/assignments/join", json: ["code": code, "nickname": "Cy"])
            #expect(anonymous.status == .unauthorized && anonymous.errorCode == "sign_in_required", "\(anonymous.raw)")
            let outsider = try await client.call(.post, "/api/v1/assignments/join", token: bob, json: ["code": code, "nickname": "bob"])
            #expect(outsider.status == .forbidden && outsider.errorCode == "not_in_class", "\(outsider.raw)")
            let student = try await client.call(.post, "/api/v1/assignments/join", token: ann, json: ["code": code, "nickname": "x"])
            #expect(student.status == .created && student["nickname"] as? String == "ann", "\(student.raw)")
            // The student plays with their session alone, and the assignment is on their due list.
            let started = try await client.call(.post, "/api/v1/assignments/\(id)/play/attempts", token: ann)
            #expect(started.status == .ok, "\(started.raw)")
            let due = try await client.call(.get, "/api/v1/me/due-assignments", token: ann)
            #expect(due.raw.contains(code), "\(due.raw)")
        }
    }
}

extension TestClientProtocol {
    /// A request as a player without an account sends it: `X-Assignment-Player: id:secret`.
    func play(_ method: HTTPRequest.Method, _ uri: String, player: AssignmentsAPITests.Player, json body: Any? = nil) async throws -> JSONResponse {
        try await play(method, uri, header: player.header, json: body)
    }

    func play(_ method: HTTPRequest.Method, _ uri: String, header: String, json body: Any? = nil) async throws -> JSONResponse {
        var headers = HTTPFields()
        headers[HTTPField.Name("X-Assignment-Player")!] = header
        var buffer: ByteBuffer?
        if let body {
            buffer = ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: body))
            headers[.contentType] = "application/json"
        }
        return try await execute(uri: uri, method: method, headers: headers, body: buffer) { response in
            let raw = String(buffer: response.body)
            let json = (try? JSONSerialization.jsonObject(with: Data(raw.utf8))) as? [String: Any] ?? [:]
            return JSONResponse(status: response.status, headers: response.headers, json: json, raw: raw)
        }
    }
}
