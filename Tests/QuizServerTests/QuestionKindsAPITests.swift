import Foundation
import HTTPTypes
import HummingbirdTesting
import QuizCore
import QuizServer
import QuizStore
import Testing

/// The new question kinds through the API, as an author and a player meet them: authored with
/// their parts, shown without anything that gives the answer away (public ids, a secret order),
/// answered in public ids, and graded with partial credit.
@Suite struct QuestionKindsAPITests {
    nonisolated(unsafe) static let questions: [[String: Any]] = [
        ["kind": "ordering", "text": "Oldest first", "points": 4, "order": ["Rome", "Paris", "Helsinki", "Brasília"]],
        ["kind": "matching", "text": "Capitals", "points": 2,
         "pairs": [["prompt": "Finland", "answer": "Helsinki"], ["prompt": "Sweden", "answer": "Stockholm"]], "extras": ["Oslo"]],
        ["kind": "gapFill", "text": "Fill the gaps", "points": 4, "passage": "The [[1]] flows through [[2]].",
         "gaps": [["kind": "choice", "answers": [["text": "Seine"], ["text": "Rhine", "fraction": 0]]],
                  ["kind": "typed", "answers": [["text": "Paris"]], "weight": 3]]],
        ["kind": "poll", "text": "Tea or coffee?", "choices": [["text": "Tea", "correct": false], ["text": "Coffee", "correct": false]]],
        ["kind": "wordCloud", "text": "One word for Monday?"],
        ["kind": "estimate", "text": "Moon landing?", "points": 10, "minimum": 1900, "maximum": 2000, "step": 1, "value": 1969,
         "margin": 10, "unit": "AD"],
        ["kind": "singleChoice", "text": "Capital of Australia?", "points": 4,
         "choices": [["text": "Canberra", "correct": true], ["text": "Sydney", "correct": false, "fraction": 0.5],
                     ["text": "Perth", "correct": false]]],
    ]

    /// A published quiz of `questions`: its id and the questions as players are sent them.
    func publishedQuiz(_ client: any TestClientProtocol, _ env: TestEnvironment,
                       questions: [[String: Any]] = Self.questions) async throws -> (quizId: Int, shown: [String: [String: Any]]) {
        let author = try await client.signUp("writer")
        try await env.store.setRole(.author, username: "writer")
        env.time.advance(by: env.config.resolvedCacheLifetime + 0.1)
        let subject = try await client.call(.post, "/api/v1/manage/subjects", token: author, json: ["name": "Mixed", "description": ""])
        let topic = try await client.call(.post, "/api/v1/manage/subjects/\(try #require(subject["id"] as? Int))/topics", token: author,
                                          json: ["name": "Kinds"])
        let topicId = try #require(topic["id"] as? Int)
        var ids: [Int] = []
        for question in questions {
            let created = try await client.call(.post, "/api/v1/manage/topics/\(topicId)/questions", token: author, json: question)
            #expect(created.status == .created, "\(created.raw)")
            ids.append(try #require(created["id"] as? Int))
        }
        let quiz = try await client.call(.post, "/api/v1/manage/topics/\(topicId)/quizzes", token: author, json: ["title": "Kinds"])
        let quizId = try #require(quiz["id"] as? Int)
        #expect(try await client.call(.put, "/api/v1/manage/quizzes/\(quizId)/questions", token: author, json: ["questionIds": ids]).status == .noContent)
        #expect(try await client.call(.patch, "/api/v1/manage/quizzes/\(quizId)", token: author, json: ["published": true]).status == .noContent)
        let questions = try await client.call(.get, "/api/v1/quizzes/\(quizId)/questions")["questions"] as? [[String: Any]] ?? []
        return (quizId, Dictionary(questions.map { ($0["kind"] as? String ?? "", $0) }) { first, _ in first })
    }

    static func options(_ question: [String: Any]?, _ key: String) -> [(id: Int, text: String)] {
        ((question?[key] as? [[String: Any]]) ?? []).map { ($0["id"] as? Int ?? 0, $0["text"] as? String ?? "") }
    }

    @Test func aQuizIsWorthThePointsOfTheQuestionsThatCanBeRight() async throws {
        try await withApp { client, env in
            let (quizId, _) = try await publishedQuiz(client, env)
            env.time.advance(by: env.config.resolvedCacheLifetime + 0.1)
            let quiz = try await client.call(.get, "/api/v1/quizzes/\(quizId)")
            let graded = Self.questions.filter { !["poll", "wordCloud", "slide"].contains($0["kind"] as? String) }
            #expect(graded.count < Self.questions.count)
            #expect(quiz["totalPoints"] as? Int == graded.reduce(0) { $0 + ($1["points"] as? Int ?? 1) }, "\(quiz.raw)")
        }
    }

    @Test func theNewKindsAreShownWithoutTheirAnswersAndGradedWithPartialCredit() async throws {
        try await withApp { client, env in
            let (quizId, shown) = try await publishedQuiz(client, env)
            // Shown: parts under 9-digit ids, nothing of the right order, pairs, value or credit.
            let items = Self.options(shown["ordering"], "items")
            #expect(Set(items.map(\.text)) == ["Rome", "Paris", "Helsinki", "Brasília"])
            #expect(items.allSatisfy { (100_000_000..<1_000_000_000).contains($0.id) })
            #expect(items.map(\.id) == items.map(\.id).sorted(), "items are listed in the order of their ids")
            let options = Self.options(shown["matching"], "options")
            #expect(Set(options.map(\.text)) == ["Helsinki", "Stockholm", "Oslo"])
            #expect(Self.options(shown["matching"], "prompts").map(\.text) == ["Finland", "Sweden"])
            let passage = shown["gapFill"]?["passage"] as? [[String: Any]] ?? []
            #expect(passage.compactMap { $0["text"] as? String } == ["The ", " flows through ", "."])
            #expect(passage.compactMap { $0["gapKind"] as? String } == ["choice", "typed"])
            #expect(shown["estimate"]?["minimum"] as? Double == 1900)
            #expect(shown["estimate"]?["value"] == nil && shown["estimate"]?["margin"] == nil)
            let raw = try await client.call(.get, "/api/v1/quizzes/\(quizId)/questions").raw
            for secret in ["fraction", "correct", "Seine\",\"correct", "margin"] { #expect(!raw.contains(secret), "\(secret) in \(raw)") }
            // The estimate's answer as a JSON number anywhere (not a digit run inside a random public id).
            #expect(raw.range(of: #":1969(\.0)?[,}\]]"#, options: .regularExpression) == nil, "1969 in \(raw)")

            let player = try await client.signUp("ada")
            let attempt = try await client.call(.post, "/api/v1/quizzes/\(quizId)/attempts", token: player)
            let answers = "/api/v1/attempts/\(try #require(attempt["id"] as? Int))/answers"
            func answer(_ kind: String, _ given: [String: Any]) async throws -> JSONResponse {
                try await client.call(.post, answers, token: player, json: ["questionId": shown[kind]?["id"] as? Int ?? 0, "answer": given])
            }
            func id(_ text: String, in list: [(id: Int, text: String)]) -> Int { list.first { $0.text == text }?.id ?? 0 }

            // Rome and Paris swapped: two of four in place.
            let order = try await answer("ordering", ["order": ["Paris", "Rome", "Helsinki", "Brasília"].map { id($0, in: items) }])
            #expect(order["verdict"] as? String == "partlyCorrect", "\(order.raw)")
            #expect(order["credit"] as? Double == 0.5)
            #expect(order["pointsAwarded"] as? Int == 2)
            #expect((order["correctAnswer"] as? [String: Any])?["order"] as? [String] == ["Rome", "Paris", "Helsinki", "Brasília"])

            let matched = try await answer("matching", ["matches": ["1": id("Helsinki", in: options), "2": id("Oslo", in: options)]])
            #expect(matched["verdict"] as? String == "partlyCorrect")
            #expect(matched["pointsAwarded"] as? Int == 1)

            let seine = try #require((passage.first { $0["gapKind"] as? String == "choice" }?["choices"] as? [[String: Any]])?
                .first { $0["text"] as? String == "Seine" }?["id"] as? Int)
            let gaps = try await answer("gapFill", ["gaps": ["1": ["choiceId": seine], "2": ["text": " paris "]]])
            #expect(gaps["verdict"] as? String == "correct", "\(gaps.raw)")
            #expect(gaps["pointsAwarded"] as? Int == 4)

            let poll = Self.options(shown["poll"], "choices")
            let vote = try await answer("poll", ["choiceId": id("Coffee", in: poll)])
            #expect(vote["verdict"] as? String == "counted")
            #expect(vote["pointsAwarded"] as? Int == 0)
            #expect(try await answer("wordCloud", ["text": "Coffee!"])["verdict"] as? String == "counted")

            let estimate = try await answer("estimate", ["number": 1966])
            #expect(estimate["verdict"] as? String == "partlyCorrect")
            #expect(estimate["pointsAwarded"] as? Int == 7)
            #expect((estimate["correctAnswer"] as? [String: Any])?["display"] as? String == "1969 AD")

            let sydney = try await answer("singleChoice", ["choiceId": id("Sydney", in: Self.options(shown["singleChoice"], "choices"))])
            #expect(sydney["verdict"] as? String == "partlyCorrect")
            #expect(sydney["pointsAwarded"] as? Int == 2)
        }
    }

    @Test func malformedAnswersToTheNewKindsAreRefusedAndNothingIsStored() async throws {
        try await withApp { client, env in
            let (quizId, shown) = try await publishedQuiz(client, env)
            let player = try await client.signUp("ada")
            let attempt = try await client.call(.post, "/api/v1/quizzes/\(quizId)/attempts", token: player)
            let attemptId = try #require(attempt["id"] as? Int)
            func answer(_ kind: String, _ given: [String: Any]) async throws -> JSONResponse {
                try await client.call(.post, "/api/v1/attempts/\(attemptId)/answers", token: player,
                                      json: ["questionId": shown[kind]?["id"] as? Int ?? 0, "answer": given])
            }
            let items = Self.options(shown["ordering"], "items").map(\.id)
            // Stored ids (1…4) are not the ids items are shown under.
            let cases: [(String, [String: Any], String)] = [
                ("ordering", ["order": [1, 2, 3, 4]], "answer_not_an_order"),
                ("ordering", ["order": Array(items.prefix(3))], "answer_not_an_order"),
                ("ordering", ["order": items + items + items], "invalid_answer"),
                ("matching", ["matches": ["1": 1]], "unknown_part"),
                ("matching", ["matches": ["7": Self.options(shown["matching"], "options")[0].id]], "unknown_part"),
                ("gapFill", ["gaps": ["3": ["text": "x"]]], "unknown_part"),
                ("gapFill", ["gaps": ["1": ["text": "Seine"]]], "unknown_part"),
                ("estimate", ["number": 2001], "answer_out_of_range"),
                ("wordCloud", ["text": String(repeating: "a", count: 41)], "answer_does_not_fit"),
                ("poll", ["choiceId": 1], "unknown_choice"),
                ("ordering", ["text": "Rome"], "answer_does_not_fit"),
            ]
            for (kind, given, code) in cases {
                let refused = try await answer(kind, given)
                #expect(refused.status == .unprocessableContent, "\(kind) \(given): \(refused.raw)")
                #expect(refused.errorCode == code, "\(kind) \(given): \(refused.raw)")
            }
            let stored = try await client.call(.get, "/api/v1/attempts/\(attemptId)", token: player)
            #expect((stored["answers"] as? [[String: Any]])?.isEmpty == true, "\(stored.raw)")
        }
    }

    @Test func aQuestionOfEveryNewKindReadsBackAsAuthored() async throws {
        try await withApp { client, env in
            let author = try await client.signUp("writer")
            try await env.store.setRole(.author, username: "writer")
            env.time.advance(by: env.config.resolvedCacheLifetime + 0.1)
            let topicId = 1
            for question in Self.questions {
                let created = try await client.call(.post, "/api/v1/manage/topics/\(topicId)/questions", token: author, json: question)
                let id = try #require(created["id"] as? Int, "\(created.raw)")
                let read = try await client.call(.get, "/api/v1/manage/questions/\(id)", token: author)
                func json(_ value: Any?) throws -> String {
                    String(decoding: try JSONSerialization.data(withJSONObject: [value ?? NSNull()], options: [.sortedKeys]), as: UTF8.self)
                }
                for key in question.keys where !["choices", "gaps"].contains(key) {
                    #expect(try json(read[key]) == json(question[key]), "\(question["kind"]!).\(key): \(read.raw)")
                }
            }
            let bad = try await client.call(.post, "/api/v1/manage/topics/\(topicId)/questions", token: author,
                                            json: ["kind": "ordering", "text": "Two only", "order": ["a", "b"]])
            #expect(bad.status == .unprocessableContent)
            #expect(bad.errorCode == "invalid_question")
        }
    }
}
