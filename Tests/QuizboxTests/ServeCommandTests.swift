import Foundation
import Testing

/// The real binary, started as a newcomer would, played over HTTP.
@Suite(.serialized) struct ServeCommandTests {
    @Test func aNewcomerCanRegisterPlayAQuizAndSeeTheirPoints() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try RunningServer(arguments: [], environment: ["QUIZBOX_BCRYPT_COST": "4"], in: directory)

        let (healthStatus, health) = try await server.request("GET", "/health")
        #expect(healthStatus == 200)
        #expect(health["status"] as? String == "ok")

        let (created, _) = try await server.request("POST", "/api/v1/users", json: [
            "username": "newcomer", "firstName": "New", "lastName": "Comer", "password": "first day here",
        ])
        #expect(created == 201)
        let (_, session) = try await server.request("POST", "/api/v1/sessions", json: ["username": "newcomer", "password": "first day here"])
        let token = try #require(session["token"] as? String)

        // The starter bank is there, ready to play.
        let (_, subjects) = try await server.request("GET", "/api/v1/subjects")
        let subjectList = try #require(subjects["subjects"] as? [[String: Any]])
        #expect(subjectList.count >= 3)
        let (_, topics) = try await server.request("GET", "/api/v1/subjects/\(subjectList[0]["id"] as? Int ?? 0)/topics")
        let topicId = try #require((topics["topics"] as? [[String: Any]])?.first?["id"] as? Int)
        let (_, quizzes) = try await server.request("GET", "/api/v1/topics/\(topicId)/quizzes")
        let quizId = try #require((quizzes["quizzes"] as? [[String: Any]])?.first?["id"] as? Int)
        let (_, questionList) = try await server.request("GET", "/api/v1/quizzes/\(quizId)/questions")
        let questions = try #require(questionList["questions"] as? [[String: Any]])
        #expect(questions.count >= 10)

        let (_, attempt) = try await server.request("POST", "/api/v1/quizzes/\(quizId)/attempts", token: token)
        let attemptId = try #require(attempt["id"] as? Int)
        // Find a right answer the way a player would: answer, read the revealed answer, and
        // use it on the same question in a second attempt.
        var earned = 0
        for question in questions where question["kind"] as? String == "trueFalse" {
            let (_, result) = try await server.request("POST", "/api/v1/attempts/\(attemptId)/answers", token: token,
                                                        json: ["questionId": question["id"] as? Int ?? 0, "answer": ["value": true]])
            #expect(["correct", "wrong"].contains(result["verdict"] as? String))
            earned += result["pointsAwarded"] as? Int ?? 0
        }
        let (_, finish) = try await server.request("POST", "/api/v1/attempts/\(attemptId)/finish", token: token)
        #expect(finish["points"] as? Int == earned)
        #expect(finish["userPoints"] as? Int == earned)

        let (_, board) = try await server.request("GET", "/api/v1/leaderboard", token: token)
        #expect((board["me"] as? [String: Any])?["points"] as? Int == earned)
        #expect((board["me"] as? [String: Any])?["rank"] as? Int == 1)

        let stopped = server.stop()
        #expect(stopped.status == 0, "\(stopped.log)")
        #expect(stopped.log.contains("database closed"))

        // Restarting on the same file keeps everything and does not load the starter bank twice.
        let again = try RunningServer(arguments: [], environment: ["QUIZBOX_BCRYPT_COST": "4"], in: directory)
        let (_, me) = try await again.request("GET", "/api/v1/me", token: token)
        #expect(me["points"] as? Int == earned)
        let (_, subjectsAgain) = try await again.request("GET", "/api/v1/subjects")
        #expect((subjectsAgain["subjects"] as? [Any])?.count == subjectList.count)
        #expect(again.stop().status == 0)
    }

    @Test func anUnopenableDatabaseIsAClearErrorAndANonZeroExit() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try QuizboxProcess.run(["serve", "--port", "0", "--database", "/no/such/folder/q.sqlite"], in: directory)
        #expect(result.status != 0)
        #expect(result.output.contains("/no/such/folder"))
    }
}
