import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import QuizCore
import QuizServer
import QuizStore
import Testing

/// Security review, issue 28, finding 4: a choice's stored id is its place in the file, and GIFT
/// files list the right answer first, so "always send choice 1" must not score.
@Suite struct ChoiceIdTests {
    /// Eight questions, each with its right answer first, as GIFT files usually have it.
    static let gift = (1...8).map { "::Q\($0):: Question \($0)? {=Right \($0) ~Wrong \($0)a ~Wrong \($0)b ~Wrong \($0)c}" }
        .joined(separator: "\n\n")

    /// Imports `gift` through the API as an author; returns the quiz and its questions as listed.
    static func importRightFirst(_ client: any TestClientProtocol, _ env: TestEnvironment) async throws -> (quiz: Int, questions: [[String: Any]]) {
        let token = try await client.signUp("writer")
        try await env.store.setRole(.author, username: "writer")
        env.time.advance(by: env.config.resolvedCacheLifetime + 0.1)
        var headers = HTTPFields()
        headers[.authorization] = "Bearer \(token)"
        headers[.contentType] = "application/octet-stream"
        let status = try await client.execute(uri: "/api/v1/imports?fileName=first.gift", method: .post, headers: headers,
                                              body: ByteBuffer(string: gift)) { $0.status }
        #expect(status == .ok || status == .created)
        env.time.advance(by: env.config.resolvedCacheLifetime + 0.1)
        let quizzes = try await env.store.allQuizzes().map(\.quiz).filter { $0.questionCount == 8 }
        let quiz = Int(try #require(quizzes.first).id)
        let questions = try await client.call(.get, "/api/v1/quizzes/\(quiz)/questions")["questions"] as? [[String: Any]] ?? []
        #expect(questions.count == 8)
        return (quiz, questions)
    }

    static func choices(_ question: [String: Any]) -> [(id: Int, text: String)] {
        (question["choices"] as? [[String: Any]] ?? []).compactMap { choice in
            guard let id = choice["id"] as? Int, let text = choice["text"] as? String else { return nil }
            return (id, text)
        }
    }

    @Test func theAPIShowsIdsThatSayNothingOfTheFilesOrderAndSendingTheFirstPlaceScoresNothing() async throws {
        try await withApp { client, env in
            let (quiz, _) = try await Self.importRightFirst(client, env)
            let token = try await client.signUp("cheat")
            let attempt = try #require(try await client.call(.post, "/api/v1/quizzes/\(quiz)/attempts", token: token)["id"] as? Int)
            let listed = try await client.call(.get, "/api/v1/quizzes/\(quiz)/questions")["questions"] as? [[String: Any]] ?? []
            var rightShownFirst = 0
            for question in listed {
                let questionId = try #require(question["id"] as? Int)
                let shown = try await client.call(.get, "/api/v1/attempts/\(attempt)/questions/\(questionId)", token: token)
                let choices = Self.choices(try #require(shown["question"] as? [String: Any]))
                #expect(choices.count == 4)
                #expect(Set(choices.map(\.id)).isDisjoint(with: 1...4), "ids are not places in the file: \(choices)")
                #expect(choices.allSatisfy { publicChoiceIds.contains($0.id) })
                if choices.sorted(by: { $0.id < $1.id }).first?.text.hasPrefix("Right") == true { rightShownFirst += 1 }
                let answered = try await client.call(.post, "/api/v1/attempts/\(attempt)/answers", token: token,
                                                     json: ["questionId": questionId, "answer": ["choiceId": 1]])
                #expect(answered.status == .unprocessableContent, "\(answered.raw)")
                #expect(answered.errorCode == "unknown_choice")
            }
            #expect(rightShownFirst < 8, "the ids' own order does not put the right answer first")
            let finished = try await client.call(.post, "/api/v1/attempts/\(attempt)/finish", token: token)
            #expect(finished["correctCount"] as? Int == 0)

            // A player who reads the ids the server sent scores.
            let fair = try #require(try await client.call(.post, "/api/v1/quizzes/\(quiz)/attempts", token: token)["id"] as? Int)
            var right = 0
            for (index, question) in listed.enumerated() {
                let questionId = try #require(question["id"] as? Int)
                let shown = try await client.call(.get, "/api/v1/attempts/\(fair)/questions/\(questionId)", token: token)
                let choices = Self.choices(try #require(shown["question"] as? [String: Any]))
                let id = try #require(choices.first { $0.text == "Right \(index + 1)" }?.id)
                let answered = try await client.call(.post, "/api/v1/attempts/\(fair)/answers", token: token,
                                                     json: ["questionId": questionId, "answer": ["choiceId": id]])
                if answered["verdict"] as? String == "correct" { right += 1 }
                #expect((answered["correctAnswer"] as? [String: Any])?["choiceIds"] as? [Int] == [id], "the correct answer in the ids shown")
            }
            #expect(right == 8)
        }
    }

    @Test func thePlayPagesFormCarriesTheSameIdsAndTheFirstPlaceIsRefused() async throws {
        try await withApp { client, env in
            let (quiz, listed) = try await Self.importRightFirst(client, env)
            let browser = TestBrowser(client)
            try await browser.register("cheat")
            let started = try await browser.post("/quizzes/\(quiz)/start", [])
            let attempt = try #require(started.location?.split(separator: "/").dropFirst().first)
            let questionId = try #require(listed.first?["id"] as? Int)
            let page = try await browser.get("/play/\(attempt)/questions/\(questionId)")
            let values = page.html.matches(of: /name="choice" value="(\d+)"/).compactMap { Int($0.output.1) }
            #expect(values.count == 4)
            #expect(Set(values).isDisjoint(with: 1...4), "\(values)")
            #expect(Set(values) == Set(Self.choices(listed[0]).map(\.id)), "the page and the API show the same ids")
            let refused = try await browser.post("/play/\(attempt)/questions/\(questionId)", [("choice", "1")])
            #expect(refused.status == .unprocessableContent)
            let right = try #require(Self.choices(listed[0]).first { $0.text == "Right 1" }?.id)
            let answered = try await browser.follow(try await browser.post("/play/\(attempt)/questions/\(questionId)", [("choice", "\(right)")]))
            #expect(answered.contains("Right 1"))
        }
    }

    /// Answers are kept in stored ids, so rows written before public ids read back as they were.
    @Test func answersAreStoredInStoredIdsAndOldRowsStillShowOnTheResultPage() async throws {
        try await withApp { client, env in
            let browser = TestBrowser(client)
            try await browser.register("ada")
            let userId: Int64 = 1  // the first account of a fresh database
            // An answer stored before this change: "Jupiter" is stored choice 2 of question 1.
            let old = try await env.store.startAttempt(userId: userId, quizId: 1, at: env.time.now())
            _ = try await env.store.recordAnswer(attemptId: old.id, questionId: 1, answer: #"{"choiceId":2}"#, isCorrect: true, points: 1,
                                                 at: env.time.now())
            let question = try await browser.get("/play/\(old.id)/questions/1")
            #expect(question.contains("Jupiter"))
            #expect(question.html.contains("is-yours") || question.html.contains("Your answer"), "\(question.html)")
            _ = try await browser.post("/play/\(old.id)/finish", [])
            let result = try await browser.get("/play/\(old.id)/result")
            #expect(result.status == .ok)
            #expect(result.html.contains("Jupiter"))

            // Answered now through a public id: stored as choice 2 all the same.
            let fresh = try await env.store.startAttempt(userId: userId, quizId: 1, at: env.time.now())
            let jupiter = try await client.choiceId("Jupiter", question: 1)
            #expect(jupiter != 2)
            _ = try await browser.post("/play/\(fresh.id)/questions/1", [("choice", "\(jupiter)")])
            let stored = try #require(try await env.store.attempt(id: fresh.id, userId: userId))
            #expect(stored.answers.first?.given == #"{"choiceId":2}"#)
            #expect(stored.answers.first?.isCorrect == true)
        }
    }
}

/// The range every public choice id falls in.
let publicChoiceIds = 100_000_000..<1_000_000_000
