import Foundation
import HTTPTypes
import HummingbirdTesting
import QuizCore
@testable import QuizServer
import QuizStore
import Testing

/// What a cheating player would try: reading timed questions before their clock, replaying a
/// quiz or a list for its points again, and always picking the first choice.
@Suite struct GameIntegrityTests {
    func me(_ client: any TestClientProtocol, _ token: String) async throws -> Int {
        try #require(try await client.call(.get, "/api/v1/me", token: token)["points"] as? Int)
    }

    /// Plays the sample quiz: the first question right (1 point) or wrong.
    func play(_ client: any TestClientProtocol, _ token: String, right: Bool) async throws -> JSONResponse {
        let attempt = try await client.call(.post, "/api/v1/quizzes/1/attempts", token: token)
        let id = try #require(attempt["id"] as? Int)
        let choice = try await client.choiceId(right ? "Jupiter" : "Mars", question: 1)
        _ = try await client.call(.post, "/api/v1/attempts/\(id)/answers", token: token,
                                  json: ["questionId": 1, "answer": ["choiceId": choice]])
        return try await client.call(.post, "/api/v1/attempts/\(id)/finish", token: token)
    }

    @Test func replayingAQuizAddsOnlyWhatBeatsTheBest() async throws {
        try await withApp { client, _ in
            let token = try await client.signUp("ada")
            let wrong = try await play(client, token, right: false)
            #expect(wrong["pointsAdded"] as? Int == 0)
            let first = try await play(client, token, right: true)
            #expect(first["points"] as? Int == 1)
            #expect(first["pointsAdded"] as? Int == 1)
            #expect(try await me(client, token) == 1)
            // The same score again: nothing more.
            let again = try await play(client, token, right: true)
            #expect(again["points"] as? Int == 1)
            #expect(again["pointsAdded"] as? Int == 0)
            #expect(try await me(client, token) == 1)
        }
    }

    @Test func theResultPageSaysWhyAReplayAddedNothing() async throws {
        try await withApp { client, _ in
            let browser = TestBrowser(client)
            try await browser.register("ada")
            for _ in 0..<2 {
                let start = try await browser.post("/quizzes/1/start", [])
                let attempt = try #require(start.location?.split(separator: "/")[1])
                try await browser.post("/play/\(attempt)/questions/1", [("choice", "\(try await client.choiceId("Jupiter", question: 1))")])
                let result = try await browser.follow(try await browser.post("/play/\(attempt)/finish", []))
                #expect(result.contains(#"id="points-added""#))
                if result.contains(#"id="points-note""#) { #expect(result.contains("+0")) }
            }
        }
    }

    @Test func aNameThemAllListCountsOnceAtItsBest() async throws {
        try await withApp { client, env in
            _ = try await env.store.importBank(planetsBank(), at: env.time.now())
            let token = try await client.signUp("ada")
            let questionId = try #require((try await client.call(.get, "/api/v1/games")["questions"] as? [[String: Any]])?.first?["id"] as? Int)
            func game(finding names: [String]) async throws -> Int {
                let id = try #require(try await client.call(.post, "/api/v1/games", token: token, json: ["questionId": questionId])["id"] as? Int)
                for name in names {
                    env.time.advance(by: 0.2)
                    _ = try await client.call(.post, "/api/v1/games/\(id)/guesses", token: token, json: ["text": name])
                }
                _ = try await client.call(.post, "/api/v1/games/\(id)/give-up", token: token)
                return id
            }
            _ = try await game(finding: ["Mars", "Venus"])
            #expect(try await me(client, token) == 2)
            // Give up, read what was missed, start again and find them all: only the improvement counts.
            let all = ["Mercury", "Venus", "Earth", "Mars", "Jupiter", "Saturn", "Uranus", "Neptune"]
            _ = try await game(finding: all)
            #expect(try await me(client, token) == 10)
            _ = try await game(finding: all)
            #expect(try await me(client, token) == 10)
        }
    }

    @Test func practiceAfterStartingOverDoesNotScoreTheSameQuestionsAgain() async throws {
        try await withApp { client, _ in
            let token = try await client.signUp("ada")
            func round() async throws -> JSONResponse {
                let started = try await client.call(.post, "/api/v1/practice", token: token,
                                                    json: practice(["count": 1, "kinds": ["singleChoice"], "order": "bank"]))
                let id = try #require((started["attempt"] as? [String: Any])?["id"] as? Int)
                _ = try await client.call(.post, "/api/v1/attempts/\(id)/answers", token: token,
                                          json: ["questionId": 1, "answer": ["choiceId": try await client.choiceId("Jupiter", question: 1)]])
                return try await client.call(.post, "/api/v1/attempts/\(id)/finish", token: token)
            }
            #expect(try await round()["pointsAdded"] as? Int == 1)
            #expect(try await client.call(.delete, "/api/v1/practice/seen", token: token).status == .noContent)
            #expect(try await round()["pointsAdded"] as? Int == 0)
            #expect(try await me(client, token) == 1)
        }
    }

    @Test func aTimedQuestionsTextWaitsForItsClock() async throws {
        try await withApp { client, env in
            let browser = TestBrowser(client)
            try await browser.register("ada")
            let setup = try await browser.post("/practice", [("count", "2"), ("kind", "singleChoice"), ("kind", "trueFalse"),
                                                             ("order", "bankOrder"), ("time_limit", "10")])
            let attempt = try #require(setup.location?.split(separator: "/")[1])
            // The round's list names its questions without their text.
            let list = try await browser.get("/play/\(attempt)")
            #expect(list.status == .ok)
            #expect(!list.contains("The Sun is a star."), "\(list.html)")
            // Reading a question of the round on its own starts its clock in the round.
            let single = try await browser.get("/questions/3")
            #expect(single.contains("The Sun is a star."))
            env.time.advance(by: 12)
            let late = try await browser.follow(try await browser.post("/play/\(attempt)/questions/3", [("value", "true")]))
            #expect(late.contains("Too late"), "\(late.html)")
        }
    }

    @Test func choicesAreShuffledPerAttemptAndStableWithinIt() async throws {
        let choices = (1...4).map { Choice(id: $0, text: "choice \($0)", isCorrect: $0 == 1) }
        let question = Question(id: 7, text: "Which?", body: .singleChoice(choices))
        let orders = Set((1...40).map { seed in question.shufflingChoices(seed: UInt64(seed)).body.choices.map(\.id) })
        #expect(orders.count > 10, "attempts see different orders")
        let firstRight = (1...400).filter { question.shufflingChoices(seed: UInt64($0)).body.choices.first?.isCorrect == true }.count
        #expect((60...140).contains(firstRight), "the right answer is first about a quarter of the time, not always")
        #expect(question.shufflingChoices(seed: 5) == question.shufflingChoices(seed: 5), "a reload shows the same order")

        try await withApp { client, _ in
            let token = try await client.signUp("ada")
            var firsts: Set<Int> = []
            for _ in 0..<12 {
                let id = try #require(try await client.call(.post, "/api/v1/quizzes/1/attempts", token: token)["id"] as? Int)
                let shown = try await client.call(.get, "/api/v1/attempts/\(id)/questions/2", token: token)
                let again = try await client.call(.get, "/api/v1/attempts/\(id)/questions/2", token: token)
                let order = ((shown["question"] as? [String: Any])?["choices"] as? [[String: Any]])?.compactMap { $0["id"] as? Int }
                #expect(order == ((again["question"] as? [String: Any])?["choices"] as? [[String: Any]])?.compactMap { $0["id"] as? Int })
                if let first = order?.first { firsts.insert(first) }
            }
            #expect(firsts.count > 1, "the first choice differs between attempts")
        }
    }
}
