import Foundation
import HTTPTypes
import HummingbirdTesting
import QuizCore
@testable import QuizServer
import QuizStore
import Testing

/// A bank with a "name them all" question (planets, 2 minutes, typos off).
func planetsBank() -> Bank {
    let items = ["Mercury", "Venus", "Earth", "Mars", "Jupiter", "Saturn", "Uranus", "Neptune"].map { NameAllItem(answer: $0) }
    return Bank(subjects: [BankSubject(name: "Science", topics: [BankTopic(name: "Astronomy", questions: [
        Question(text: "Name all the planets.", body: .nameAll(items: items, timeLimitSeconds: 120, typoTolerance: false)),
    ])])])
}

func practice(_ settings: [String: Any] = [:], acceptFewer: Bool = false) -> [String: Any] {
    var wire: [String: Any] = ["subjectIds": [Int](), "topicIds": [Int](), "count": 3, "kinds": [String](), "order": "random"]
    for (key, value) in settings { wire[key] = value }
    return ["settings": wire, "acceptFewer": acceptFewer]
}

@Suite struct PracticeAPITests {
    @Test func aPracticeRoundIsAnAttemptThatNeverRepeatsUntilTheyStartOver() async throws {
        try await withApp { client, _ in
            let token = try await client.signUp("ada")
            let first = try await client.call(.post, "/api/v1/practice", token: token, json: practice(["count": 3]))
            #expect(first["status"] as? String == "started", "\(first.raw)")
            #expect(first["matching"] as? Int == 5)
            let firstIds = try #require(first["questionIds"] as? [Int])
            #expect(firstIds.count == 3)
            // Only 2 unseen remain: nothing starts until the player accepts fewer.
            let second = try await client.call(.post, "/api/v1/practice", token: token, json: practice(["count": 3]))
            #expect(second["status"] as? String == "fewerThanAsked")
            #expect(second["unseen"] as? Int == 2)
            #expect(second["attempt"] == nil)
            let accepted = try await client.call(.post, "/api/v1/practice", token: token, json: practice(["count": 3], acceptFewer: true))
            #expect(accepted["status"] as? String == "started")
            let secondIds = try #require(accepted["questionIds"] as? [Int])
            #expect(Set(secondIds).isDisjoint(with: firstIds))
            #expect(Set(firstIds + secondIds).count == 5)
            let usedUp = try await client.call(.post, "/api/v1/practice", token: token, json: practice())
            #expect(usedUp["status"] as? String == "poolUsedUp")
            #expect(try await client.call(.delete, "/api/v1/practice/seen", token: token).status == .noContent)
            #expect(try await client.call(.post, "/api/v1/practice", token: token, json: practice())["status"] as? String == "started")
        }
    }

    @Test func aPracticeRoundPlaysScoresAndStaysOutOfTheCatalog() async throws {
        try await withApp { client, _ in
            let token = try await client.signUp("ada")
            let started = try await client.call(.post, "/api/v1/practice", token: token,
                                                json: practice(["count": 1, "kinds": ["singleChoice"], "order": "bank"]))
            let attempt = try #require(started["attempt"] as? [String: Any])
            let attemptId = try #require(attempt["id"] as? Int)
            let quizId = try #require(attempt["quizId"] as? Int)
            #expect(started["questionIds"] as? [Int] == [1])
            let answer = try await client.call(.post, "/api/v1/attempts/\(attemptId)/answers", token: token,
                                               json: ["questionId": 1, "answer": ["choiceId": try await client.choiceId("Jupiter", question: 1)]])
            #expect(answer["verdict"] as? String == "correct")
            let finished = try await client.call(.post, "/api/v1/attempts/\(attemptId)/finish", token: token)
            #expect(finished["userPoints"] as? Int == 1)
            // Someone's practice round is theirs: not a quiz anyone can list, open or start.
            #expect(try await client.call(.get, "/api/v1/quizzes/\(quizId)").status == .notFound)
            #expect(try await client.call(.get, "/api/v1/quizzes/\(quizId)/questions").status == .notFound)
            #expect(try await client.call(.post, "/api/v1/quizzes/\(quizId)/attempts", token: token).status == .notFound)
            let topics = try await client.call(.get, "/api/v1/subjects/1/topics")["topics"] as? [[String: Any]]
            #expect(topics?.first?["quizCount"] as? Int == 1)
        }
    }

    @Test func theLastSettingsAreRememberedAndBadOnesAreExplained() async throws {
        try await withApp { client, _ in
            let token = try await client.signUp("ada")
            #expect(try await client.call(.get, "/api/v1/practice/settings", token: token)["count"] as? Int == 10)
            _ = try await client.call(.post, "/api/v1/practice", token: token,
                                      json: practice(["count": 2, "difficulty": "easy", "timeLimitSeconds": 20, "order": "bank"]))
            let saved = try await client.call(.get, "/api/v1/practice/settings", token: token)
            #expect(saved["count"] as? Int == 2)
            #expect(saved["difficulty"] as? String == "easy")
            #expect(saved["timeLimitSeconds"] as? Int == 20)
            #expect(saved["order"] as? String == "bank")
            for (settings, field) in [(["count": 51], "count"), (["count": 0], "count"), (["timeLimitSeconds": 15], "timeLimitSeconds"),
                                      (["kinds": ["nameAll"]], "kinds")] as [([String: Any], String)] {
                let refused = try await client.call(.post, "/api/v1/practice", token: token, json: practice(settings))
                #expect(refused.status == .unprocessableContent)
                #expect(refused.errorField == field)
            }
            let none = try await client.call(.post, "/api/v1/practice", token: token, json: practice(["topicIds": [999]]))
            #expect(none["status"] as? String == "nothingMatches")
            #expect(try await client.call(.post, "/api/v1/practice", json: practice()).status == .unauthorized)
        }
    }

    @Test func aTimedQuestionAnsweredAfterItsLimitIsTooLateAndScoresNothing() async throws {
        try await withApp { client, env in
            let token = try await client.signUp("ada")
            let started = try await client.call(.post, "/api/v1/practice", token: token,
                                                json: practice(["count": 2, "kinds": ["singleChoice", "trueFalse"], "order": "bank", "timeLimitSeconds": 10]))
            let attemptId = try #require((started["attempt"] as? [String: Any])?["id"] as? Int)
            let answers = "/api/v1/attempts/\(attemptId)/answers"
            // Answering before the question was fetched would dodge the clock.
            let unseen = try await client.call(.post, answers, token: token, json: ["questionId": 1, "answer": ["choiceId": try await client.choiceId("Jupiter", question: 1)]])
            #expect(unseen.status == .conflict)
            #expect(unseen.errorCode == "question_not_shown")

            let shown = try await client.call(.get, "/api/v1/attempts/\(attemptId)/questions/1", token: token)
            #expect(shown["deadline"] != nil)
            #expect((shown["question"] as? [String: Any])?["text"] as? String == "Which planet is largest?")
            env.time.advance(by: 11)  // within the limit plus its 1 s grace
            let inTime = try await client.call(.post, answers, token: token, json: ["questionId": 1, "answer": ["choiceId": try await client.choiceId("Jupiter", question: 1)]])
            #expect(inTime["verdict"] as? String == "correct")

            _ = try await client.call(.get, "/api/v1/attempts/\(attemptId)/questions/3", token: token)
            env.time.advance(by: 11.5)
            let late = try await client.call(.post, answers, token: token, json: ["questionId": 3, "answer": ["value": true]])
            #expect(late["verdict"] as? String == "tooLate")
            #expect(late["pointsAwarded"] as? Int == 0)
            let finished = try await client.call(.post, "/api/v1/attempts/\(attemptId)/finish", token: token)
            #expect(finished["points"] as? Int == 1)
            #expect(finished["correctCount"] as? Int == 1)
        }
    }
}

@Suite struct SingleQuestionAPITests {
    @Test func aQuestionCountsTowardsPointsOncePerDay() async throws {
        try await withApp { client, env in
            let token = try await client.signUp("ada")
            let question = try await client.call(.get, "/api/v1/questions/5", token: token)
            #expect(question["text"] as? String == "How many planets?")
            #expect(!question.raw.contains("\"value\""))
            let wrong = try await client.call(.post, "/api/v1/questions/5/answers", token: token, json: ["number": 9])
            #expect(wrong["verdict"] as? String == "wrong")
            #expect(wrong["counted"] as? Bool == true)
            let right = try await client.call(.post, "/api/v1/questions/5/answers", token: token, json: ["number": 8])
            #expect(right["verdict"] as? String == "correct")
            #expect(right["counted"] as? Bool == false)
            #expect(right["pointsAwarded"] as? Int == 0)
            env.time.advance(by: 24 * 3600)
            let tomorrow = try await client.call(.post, "/api/v1/questions/5/answers", token: token, json: ["number": 8])
            #expect(tomorrow["pointsAwarded"] as? Int == 3)
            #expect(try await client.call(.get, "/api/v1/me", token: token)["points"] as? Int == 3)
            #expect(try await client.call(.post, "/api/v1/questions/5/answers", token: token, json: ["choiceId": 1]).status == .unprocessableContent)
            #expect(try await client.call(.get, "/api/v1/questions/999", token: token).status == .notFound)
        }
    }

    @Test func aRandomQuestionComesFromTheChosenTopicAndNeverCarriesItsAnswer() async throws {
        try await withApp { client, env in
            _ = try await env.store.importBank(planetsBank(), at: env.time.now())
            let token = try await client.signUp("ada")
            for _ in 0..<20 {
                let question = try await client.call(.get, "/api/v1/questions/random?topicId=1", token: token)
                #expect(question.status == .ok)
                #expect(question["kind"] as? String != "nameAll")
                #expect(!question.raw.contains("isCorrect") && !question.raw.contains("explanation"))
            }
            let none = try await client.call(.get, "/api/v1/questions/random?topicId=999", token: token)
            #expect(none.status == .notFound)
            #expect(none.errorCode == "no_questions")
        }
    }
}

@Suite struct NameAllGameAPITests {
    func startPlanets(_ client: any TestClientProtocol, _ env: TestEnvironment, _ token: String) async throws -> Int {
        _ = try await env.store.importBank(planetsBank(), at: env.time.now())
        let list = try await client.call(.get, "/api/v1/games")["questions"] as? [[String: Any]]
        let question = try #require(list?.first)
        #expect(question["itemCount"] as? Int == 8)
        #expect(question["timeLimitSeconds"] as? Int == 120)
        let game = try await client.call(.post, "/api/v1/games", token: token, json: ["questionId": question["id"] as Any])
        #expect(game.status == .created)
        #expect(game["missed"] == nil, "the answers must not reach the player before the end")
        return try #require(game["id"] as? Int)
    }

    @Test func everyVerdictAndTheEndWhenAllAreFound() async throws {
        try await withApp { client, env in
            let token = try await client.signUp("ada")
            let id = try await startPlanets(client, env, token)
            let guesses = "/api/v1/games/\(id)/guesses"
            func verdict(_ text: String) async throws -> JSONResponse {
                env.time.advance(by: 0.2)  // a person's pace, under the rate limit
                return try await client.call(.post, guesses, token: token, json: ["text": text])
            }
            let found = try await verdict("  the EARTH! ")
            #expect(found["verdict"] as? String == "found")
            #expect((found["item"] as? [String: Any])?["answer"] as? String == "Earth")
            #expect(try await verdict("earth")["verdict"] as? String == "alreadyFound")
            #expect(try await verdict("Pluto")["verdict"] as? String == "notAnItem")
            #expect(try await verdict("Marz")["verdict"] as? String == "notAnItem")  // typo tolerance is off
            #expect(try await verdict("")["verdict"] as? String == "empty")
            #expect(try await verdict("\u{0007}\u{0000}  ")["verdict"] as? String == "empty")
            #expect(try await verdict(String(repeating: "x", count: 10_240))["verdict"] as? String == "tooLong")
            var last: JSONResponse?
            for name in ["Mercury", "Venus", "Mars", "Jupiter", "Saturn", "Uranus", "Neptune"] { last = try await verdict(name) }
            #expect(last?["state"] as? String == "finished")
            #expect(last?["foundCount"] as? Int == 8)
            let game = try await client.call(.get, "/api/v1/games/\(id)", token: token)
            #expect(game["endReason"] as? String == "allFound")
            #expect(game["points"] as? Int == 10)  // 8 items + a bonus of 2 for all of them
            #expect(try await client.call(.get, "/api/v1/me", token: token)["points"] as? Int == 10)
            #expect(try await verdict("Mars")["verdict"] as? String == "gameOver")
            // Reading the game again adds nothing.
            _ = try await client.call(.get, "/api/v1/games/\(id)", token: token)
            #expect(try await client.call(.get, "/api/v1/me", token: token)["points"] as? Int == 10)
        }
    }

    @Test func theServerEndsTheGameWhenTimeRunsOut() async throws {
        try await withApp { client, env in
            let token = try await client.signUp("ada")
            let id = try await startPlanets(client, env, token)
            _ = try await client.call(.post, "/api/v1/games/\(id)/guesses", token: token, json: ["text": "Mars"])
            env.time.advance(by: 121.5)
            let late = try await client.call(.post, "/api/v1/games/\(id)/guesses", token: token, json: ["text": "Venus"])
            #expect(late["verdict"] as? String == "tooLate")
            #expect(late["state"] as? String == "finished")
            let game = try await client.call(.get, "/api/v1/games/\(id)", token: token)
            #expect(game["endReason"] as? String == "timeUp")
            #expect(game["points"] as? Int == 1)
            #expect((game["missed"] as? [Any])?.count == 7)
            #expect(game["secondsUsed"] as? Double == 120)
            #expect(try await client.call(.get, "/api/v1/me", token: token)["points"] as? Int == 1)
        }
    }

    @Test func givingUpShowsTheMissedItemsAndOthersCannotTouchTheGame() async throws {
        try await withApp { client, env in
            let token = try await client.signUp("ada")
            let bob = try await client.signUp("bob")
            let id = try await startPlanets(client, env, token)
            #expect(try await client.call(.get, "/api/v1/games/\(id)", token: bob).status == .notFound)
            #expect(try await client.call(.post, "/api/v1/games/\(id)/guesses", token: bob, json: ["text": "Mars"]).status == .notFound)
            env.time.advance(by: 30)
            let ended = try await client.call(.post, "/api/v1/games/\(id)/give-up", token: token)
            #expect(ended["endReason"] as? String == "gaveUp")
            #expect(ended["secondsUsed"] as? Double == 30)
            #expect((ended["missed"] as? [[String: Any]])?.compactMap { $0["answer"] as? String }.first == "Mercury")
            let after = try await client.call(.post, "/api/v1/games/\(id)/guesses", token: token, json: ["text": "Mars"])
            #expect(after["verdict"] as? String == "gameOver")
            let notNameAll = try await client.call(.post, "/api/v1/games", token: token, json: ["questionId": 1])
            #expect(notNameAll.status == .notFound)
        }
    }

    @Test func aHundredGuessesASecondAreSlowedDownWithAClearMessage() async throws {
        try await withApp { client, env in
            let token = try await client.signUp("ada")
            let id = try await startPlanets(client, env, token)
            var limited = 0
            for _ in 0..<100 {
                let response = try await client.call(.post, "/api/v1/games/\(id)/guesses", token: token, json: ["text": "Pluto"])
                if response.status == .tooManyRequests {
                    limited += 1
                    #expect(response.errorCode == "too_many_guesses")
                }
            }
            #expect(limited == 85)
            env.time.advance(by: 1.1)
            #expect(try await client.call(.post, "/api/v1/games/\(id)/guesses", token: token, json: ["text": "Mars"])["verdict"] as? String == "found")
        }
    }

    @Test func badGuessRequestsGetClearErrors() async throws {
        try await withApp { client, env in
            let token = try await client.signUp("ada")
            let id = try await startPlanets(client, env, token)
            let path = "/api/v1/games/\(id)/guesses"
            #expect(try await client.call(.post, path, json: ["text": "Mars"]).errorCode == "unauthenticated")
            #expect(try await client.call(.post, path, token: token, rawBody: "{text: Mars").errorCode == "invalid_json")
            #expect(try await client.call(.post, path, token: token, rawBody: "{}").errorCode == "invalid_json")
            #expect(try await client.call(.post, path, token: token, rawBody: "Mars", contentType: "text/plain").status == .unsupportedMediaType)
            #expect(try await client.call(.post, "/api/v1/games/999/guesses", token: token, json: ["text": "Mars"]).status == .notFound)
            #expect(try await client.call(.post, "/api/v1/games/x/guesses", token: token, json: ["text": "Mars"]).status.code >= 400)
            let found = try await client.call(.post, path, token: token, json: ["text": "Mars"])
            #expect(found.raw == #"{"verdict":"found","item":{"index":3,"answer":"Mars"},"state":"playing","foundCount":1,"itemCount":8}"#)
        }
    }

    @Test func answersAreWrittenAsValidJSONStrings() throws {
        let text = "Say \"hi\"\\ \n\u{1}é"
        let json = GuessOutcome(verdict: "found", item: (0, text), finished: false, foundCount: 1, itemCount: 2).json
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect((object["item"] as? [String: Any])?["answer"] as? String == text)
    }
}
