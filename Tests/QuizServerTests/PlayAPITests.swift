import Foundation
import HTTPTypes
import HummingbirdTesting
import QuizCore
import QuizServer
import QuizStore
import Testing

@Suite struct PlayAPITests {
    @Test func browsingShowsSubjectsTopicsQuizzesAndQuestionsWithoutAnswers() async throws {
        try await withApp { client, _ in
            let subjects = try await client.call(.get, "/api/v1/subjects")
            let subject = try #require((subjects["subjects"] as? [[String: Any]])?.first)
            #expect(subject["name"] as? String == "Science")
            #expect(subject["topicCount"] as? Int == 1)
            let (quizId, questions) = try await client.firstQuiz()
            let quiz = try await client.call(.get, "/api/v1/quizzes/\(quizId)")
            #expect(quiz["title"] as? String == "Planets")
            #expect(quiz["questionCount"] as? Int == 5)
            #expect(quiz["totalPoints"] as? Int == 8)
            #expect(questions.map { $0["kind"] as? String } == ["singleChoice", "multipleChoice", "trueFalse", "typedAnswer", "numeric"])
            #expect(questions.map { $0["position"] as? Int } == [1, 2, 3, 4, 5])
            let raw = try await client.call(.get, "/api/v1/quizzes/\(quizId)/questions").raw
            for secret in ["correct", "isCorrect", "Paris", "explanation", "\"answer", "tolerance"] {
                #expect(!raw.contains(secret), "question list leaks \(secret)")
            }
            #expect(questions[4]["unit"] as? String == "planets")
        }
    }

    /// On SQLite another process's import shows once the cache lifetime passes; on PostgreSQL it
    /// bumps the change counters, so it shows on the very next request.
    @Test func catalogChangesFromAnotherProcessShowWithinTheCacheLifetimeOrAtOnceOnPostgreSQL() async throws {
        try await withApp { client, env in
            #expect((try await client.call(.get, "/api/v1/subjects")["subjects"] as? [Any])?.count == 1)
            // env.store is not the application's store: like `quizbox import` run beside the server.
            _ = try await env.store.importBank(Bank(subjects: [BankSubject(name: "History")]), at: env.time.now())
            let next = (try await client.call(.get, "/api/v1/subjects")["subjects"] as? [Any])?.count
            #expect(next == (apiTestsOnPostgres ? 2 : 1))
            env.time.advance(by: env.config.resolvedCacheLifetime + 0.1)
            let names = (try await client.call(.get, "/api/v1/subjects")["subjects"] as? [[String: Any]])?.compactMap { $0["name"] as? String }
            #expect(names == ["Science", "History"])
        }
    }

    @Test func playingAQuizGivesVerdictsThenScoresAndRanksOnce() async throws {
        try await withApp { client, env in
            let token = try await client.signUp("ada")
            let (quizId, questions) = try await client.firstQuiz()
            let ids = questions.compactMap { $0["id"] as? Int }
            let attempt = try await client.call(.post, "/api/v1/quizzes/\(quizId)/attempts", token: token)
            #expect(attempt.status == .created)
            let attemptId = try #require(attempt["id"] as? Int)
            #expect(attempt["questionCount"] as? Int == 5)
            let answers = "/api/v1/attempts/\(attemptId)/answers"
            let jupiter = try await client.choiceId("Jupiter", question: ids[0], quiz: quizId)
            let mars = try await client.choiceId("Mars", question: ids[0], quiz: quizId)
            let giants = [try await client.choiceId("Jupiter", question: ids[1], quiz: quizId),
                          try await client.choiceId("Saturn", question: ids[1], quiz: quizId)]

            let right = try await client.call(.post, answers, token: token, json: ["questionId": ids[0], "answer": ["choiceId": jupiter]])
            #expect(right["verdict"] as? String == "correct")
            #expect(right["pointsAwarded"] as? Int == 1)
            #expect(right["explanation"] as? String == "Jupiter is the largest planet.")
            #expect((right["correctAnswer"] as? [String: Any])?["display"] as? String == "Jupiter")

            let again = try await client.call(.post, answers, token: token, json: ["questionId": ids[0], "answer": ["choiceId": mars]])
            #expect(again["verdict"] as? String == "alreadyAnswered")
            #expect(again["pointsAwarded"] as? Int == 0)

            let wrong = try await client.call(.post, answers, token: token, json: ["questionId": ids[1], "answer": ["choiceIds": [giants[0]]]])
            #expect(wrong["verdict"] as? String == "wrong")
            #expect(Set((wrong["correctAnswer"] as? [String: Any])?["choiceIds"] as? [Int] ?? []) == Set(giants))

            let typed = try await client.call(.post, answers, token: token, json: ["questionId": ids[3], "answer": ["text": "  the PARÍS! "]])
            #expect(typed["verdict"] as? String == "correct")
            let numeric = try await client.call(.post, answers, token: token, json: ["questionId": ids[4], "answer": ["number": 8]])
            #expect(numeric["verdict"] as? String == "correct")
            #expect((numeric["correctAnswer"] as? [String: Any])?["display"] as? String == "8 planets")

            env.time.advance(by: 42)
            let finish = try await client.call(.post, "/api/v1/attempts/\(attemptId)/finish", token: token)
            #expect(finish.status == .ok)
            #expect(finish["correctCount"] as? Int == 3)
            #expect(finish["questionCount"] as? Int == 5)
            #expect(finish["points"] as? Int == 5)
            #expect(finish["totalPoints"] as? Int == 8)
            #expect(finish["userPoints"] as? Int == 5)
            #expect(finish["rank"] as? Int == 1)
            #expect(finish["timeTakenSeconds"] as? Double == 42)

            let twice = try await client.call(.post, "/api/v1/attempts/\(attemptId)/finish", token: token)
            #expect(twice["userPoints"] as? Int == 5)
            let me = try await client.call(.get, "/api/v1/me", token: token)
            #expect(me["points"] as? Int == 5)
            #expect(me["quizzesFinished"] as? Int == 1)

            let late = try await client.call(.post, answers, token: token, json: ["questionId": ids[2], "answer": ["value": true]])
            #expect(late.status == .conflict)
            #expect(late.errorCode == "attempt_finished")

            let stored = try await client.call(.get, "/api/v1/attempts/\(attemptId)", token: token)
            #expect((stored["answers"] as? [[String: Any]])?.count == 4)
            #expect(stored["finishedAt"] as? String != nil)
        }
    }

    @Test func theSameAnswerSentTenTimesAtOnceCountsOnce() async throws {
        try await withApp { client, _ in
            let token = try await client.signUp("racer")
            let (quizId, questions) = try await client.firstQuiz()
            let attemptId = try #require(try await client.call(.post, "/api/v1/quizzes/\(quizId)/attempts", token: token)["id"] as? Int)
            let questionId = questions[0]["id"] as? Int ?? 0
            let jupiter = try await client.choiceId("Jupiter", question: questionId, quiz: quizId)
            let verdicts = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<10 {
                    group.addTask {
                        try await client.call(.post, "/api/v1/attempts/\(attemptId)/answers", token: token,
                                              json: ["questionId": questionId, "answer": ["choiceId": jupiter]])["verdict"] as? String ?? "?"
                    }
                }
                return try await group.reduce(into: [String]()) { $0.append($1) }
            }
            #expect(verdicts.filter { $0 == "correct" }.count == 1)
            #expect(verdicts.filter { $0 == "alreadyAnswered" }.count == 9)
            let results = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<5 {
                    group.addTask {
                        try await client.call(.post, "/api/v1/attempts/\(attemptId)/finish", token: token)["userPoints"] as? Int ?? -1
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(results == [1, 1, 1, 1, 1])
            #expect(try await client.call(.get, "/api/v1/me", token: token)["points"] as? Int == 1)
        }
    }

    @Test func anotherUsersAttemptIsNotFound() async throws {
        try await withApp { client, _ in
            let ada = try await client.signUp("ada")
            let bob = try await client.signUp("bob")
            let (quizId, questions) = try await client.firstQuiz()
            let attemptId = try #require(try await client.call(.post, "/api/v1/quizzes/\(quizId)/attempts", token: ada)["id"] as? Int)
            let peek = try await client.call(.get, "/api/v1/attempts/\(attemptId)", token: bob)
            #expect(peek.status == .notFound)
            let answer = try await client.call(.post, "/api/v1/attempts/\(attemptId)/answers", token: bob,
                                               json: ["questionId": questions[0]["id"] as? Int ?? 0, "answer": ["choiceId": 2]])
            #expect(answer.status == .notFound)
            #expect(try await client.call(.post, "/api/v1/attempts/\(attemptId)/finish", token: bob).status == .notFound)
        }
    }

    @Test func theLeaderboardShowsTheTopAndWhereYouStand() async throws {
        try await withApp { client, _ in
            var tokens: [String] = []
            for name in ["ann", "bea", "cid", "dan"] { tokens.append(try await client.signUp(name)) }
            let (quizId, questions) = try await client.firstQuiz()
            let jupiter = try await client.choiceId("Jupiter", question: questions[0]["id"] as? Int ?? 0, quiz: quizId)
            // ann answers the 3-point question, bea and cid the 1-point one, dan nothing.
            for (index, questionIndex, answer) in [(0, 4, ["number": 8] as [String: Any]), (1, 0, ["choiceId": jupiter]), (2, 0, ["choiceId": jupiter])] {
                let attemptId = try #require(try await client.call(.post, "/api/v1/quizzes/\(quizId)/attempts", token: tokens[index])["id"] as? Int)
                try await client.call(.post, "/api/v1/attempts/\(attemptId)/answers", token: tokens[index],
                                      json: ["questionId": questions[questionIndex]["id"] as? Int ?? 0, "answer": answer])
                try await client.call(.post, "/api/v1/attempts/\(attemptId)/finish", token: tokens[index])
            }
            let forDan = try await client.call(.get, "/api/v1/leaderboard", token: tokens[3])
            let top = try #require(forDan["top"] as? [[String: Any]])
            #expect(top.map { $0["username"] as? String } == ["ann", "bea", "cid"])
            #expect(top.map { $0["rank"] as? Int } == [1, 2, 2])
            #expect(top.map { $0["points"] as? Int } == [3, 1, 1])
            #expect((forDan["me"] as? [String: Any])?["rank"] as? Int == 4)
            #expect((forDan["footer"] as? [String: Any])?["username"] as? String == "dan")

            let forAnn = try await client.call(.get, "/api/v1/leaderboard?limit=2", token: tokens[0])
            #expect((forAnn["top"] as? [[String: Any]])?.count == 2)
            #expect((forAnn["footer"] as? [String: Any])?["username"] as? String == "dan", "the last-placed user")

            let everyone = try await client.call(.get, "/api/v1/leaderboard?limit=10", token: tokens[0])
            #expect(everyone["footer"] == nil)
            #expect(try await client.call(.get, "/api/v1/leaderboard").errorCode == "unauthenticated")
        }
    }
}
