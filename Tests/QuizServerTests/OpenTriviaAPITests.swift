import Foundation
import HTTPTypes
import HummingbirdTesting
import QuizCore
import QuizServer
import Testing

/// The Open Trivia DB-compatible routes over HTTP: the exact shapes its clients parse, the codes
/// and the 429 of its rate limit. The sample bank serves two questions: "Which planet is
/// largest?" (two choices) and "The Sun is a star." (true/false); the rest are other kinds.
@Suite struct OpenTriviaAPITests {
    static let noLimit: @Sendable (inout ServerConfig) -> Void = { $0.triviaAPI = true; $0.triviaRequestInterval = 0 }
    /// The API is off unless the operator turns it on (it hands out correct answers).
    static let on: @Sendable (inout ServerConfig) -> Void = { $0.triviaAPI = true }

    static func code(_ client: any TestClientProtocol, _ uri: String) async throws -> Int? {
        try await client.call(.get, uri)["response_code"] as? Int
    }

    @Test func questionsHaveExactlyOpenTriviaDBsKeys() async throws {
        try await withApp(configure: Self.noLimit) { client, _ in
            let response = try await client.call(.get, "/api.php?amount=2")
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "application/json")
            #expect(Set(response.json.keys) == ["response_code", "results"])
            #expect(response["response_code"] as? Int == 0)
            let results = try #require(response["results"] as? [[String: Any]])
            #expect(results.count == 2)
            for result in results {
                #expect(Set(result.keys) == ["type", "difficulty", "category", "question", "correct_answer", "incorrect_answers"])
            }
            let star = try #require(results.first { $0["type"] as? String == "boolean" })
            #expect(star["question"] as? String == "The Sun is a star.")
            #expect(star["correct_answer"] as? String == "True")
            #expect(star["incorrect_answers"] as? [String] == ["False"])
            #expect(star["category"] as? String == "Science: Astronomy")
            #expect(star["difficulty"] as? String == "easy")
            let planet = try #require(results.first { $0["type"] as? String == "multiple" })
            #expect(planet["correct_answer"] as? String == "Jupiter")
            #expect(planet["incorrect_answers"] as? [String] == ["Mars"])

            let encoded = try await client.call(.get, "/api.php?amount=1&type=boolean&encode=base64")
            let item = try #require((encoded["results"] as? [[String: Any]])?.first)
            #expect(item["type"] as? String == "Ym9vbGVhbg==")
            #expect(item["category"] as? String == Data("Science: Astronomy".utf8).base64EncodedString())
        }
    }

    @Test(arguments: ["amount=0", "amount=51", "amount=abc", "", "amount=1&difficulty=extreme", "amount=1&type=x", "amount=1&encode=rot13",
                      "amount=1&category=abc", "amount=%FF"])
    func invalidParametersAreCode2(_ query: String) async throws {
        try await withApp(configure: Self.noLimit) { client, _ in
            let response = try await client.call(.get, "/api.php?\(query)")
            #expect(response.status == .ok)
            #expect(response.raw == #"{"response_code":2,"results":[]}"#)
        }
    }

    @Test func tooManyQuestionsIsCode1AndAnUnknownTokenCode3() async throws {
        try await withApp(configure: Self.noLimit) { client, _ in
            let tooMany = try await Self.code(client, "/api.php?amount=3")
            let noCategory = try await Self.code(client, "/api.php?amount=1&category=999")
            let unknownToken = try await Self.code(client, "/api.php?amount=1&token=0123abcd")
            #expect(tooMany == 1 && noCategory == 1)
            #expect(unknownToken == 3)
        }
    }

    @Test func aChoiceWorthPartOfThePointsKeepsItsQuestionOutOfTheAPI() async throws {
        try await withApp(configure: Self.noLimit) { client, env in
            let choices: [[String: Any]] = [["text": "Canberra", "correct": true], ["text": "Sydney", "correct": false]]
            var partly = choices
            partly[1]["fraction"] = 0.5
            _ = try await QuestionKindsAPITests().publishedQuiz(client, env, questions: [
                ["kind": "singleChoice", "text": "Capital of Australia?", "choices": choices],
                ["kind": "singleChoice", "text": "Seat of Australia's government?", "choices": partly],
            ])
            env.time.advance(by: env.config.resolvedCacheLifetime + 0.1)
            let served = try await client.call(.get, "/api.php?amount=3")
            let texts = (served["results"] as? [[String: Any]])?.compactMap { $0["question"] as? String } ?? []
            #expect(Set(texts) == ["Which planet is largest?", "The Sun is a star.", "Capital of Australia?"])
            #expect(try await Self.code(client, "/api.php?amount=4") == 1)
        }
    }

    @Test func oneRequestEveryFiveSecondsThen429WithCode5() async throws {
        try await withApp(configure: Self.on) { client, env in
            #expect(try await client.call(.get, "/api.php?amount=1").status == .ok)
            let limited = try await client.call(.get, "/api.php?amount=1")
            #expect(limited.status == .tooManyRequests)
            #expect(limited.headers[.retryAfter] == "5")
            #expect(limited.raw == #"{"response_code":5,"results":[]}"#)
            env.time.advance(by: 5)
            #expect(try await client.call(.get, "/api.php?amount=1").status == .ok)
        }
    }

    @Test func tokensAreRequestedUsedUpAndReset() async throws {
        try await withApp(configure: Self.noLimit) { client, _ in
            let requested = try await client.call(.get, "/api_token.php?command=request")
            #expect(Set(requested.json.keys) == ["response_code", "response_message", "token"])
            #expect(requested["response_message"] as? String == "Token Generated Successfully!")
            let token = try #require(requested["token"] as? String)
            #expect(try await Self.code(client, "/api.php?amount=2&token=\(token)") == 0)
            let empty = try await client.call(.get, "/api.php?amount=1&token=\(token)")
            #expect(empty.status == .ok && empty["response_code"] as? Int == 4)
            let reset = try await client.call(.get, "/api_token.php?command=reset&token=\(token)")
            #expect(reset.raw == #"{"response_code":0,"token":"\#(token)"}"#)
            #expect(try await Self.code(client, "/api.php?amount=1&token=\(token)") == 0)
            #expect(try await Self.code(client, "/api_token.php?command=reset&token=nope") == 3)
            #expect(try await Self.code(client, "/api_token.php?command=destroy") == 2)
            #expect(try await Self.code(client, "/api_token.php") == 2)
        }
    }

    @Test func sixtyTokensAnHourPerAddressThen429() async throws {
        try await withApp(configure: Self.on) { client, env in
            for _ in 0..<60 { _ = try await client.call(.get, "/api_token.php?command=request") }
            let refused = try await client.call(.get, "/api_token.php?command=request")
            #expect(refused.status == .tooManyRequests)
            #expect(refused.headers[.retryAfter] == "3600")
            #expect(refused["response_code"] as? Int == 5 && refused["token"] == nil)
            env.time.advance(by: 3600)
            let again = try await client.call(.get, "/api_token.php?command=request")
            #expect(again.status == .ok && again["token"] is String)
        }
    }

    @Test func categoriesAndCountsHaveOpenTriviaDBsShapes() async throws {
        try await withApp(configure: Self.on) { client, _ in
            let categories = try await client.call(.get, "/api_category.php")
            let list = try #require(categories["trivia_categories"] as? [[String: Any]])
            #expect(list.count == 1)
            let id = try #require(list.first?["id"] as? Int)
            #expect(id >= 9)
            #expect(list.first?["name"] as? String == "Science: Astronomy")

            let count = try await client.call(.get, "/api_count.php?category=\(id)")
            #expect(count["category_id"] as? Int == id)
            let numbers = try #require(count["category_question_count"] as? [String: Int])
            #expect(numbers == ["total_question_count": 2, "total_easy_question_count": 2, "total_medium_question_count": 0,
                                "total_hard_question_count": 0])
            #expect(try await Self.code(client, "/api_count.php?category=x") == 2)

            let global = try await client.call(.get, "/api_count_global.php")
            let overall = try #require(global["overall"] as? [String: Int])
            #expect(overall == ["total_num_of_questions": 2, "total_num_of_pending_questions": 0, "total_num_of_verified_questions": 2,
                                "total_num_of_rejected_questions": 0])
            let perCategory = try #require(global["categories"] as? [String: [String: Int]])
            #expect(perCategory["\(id)"]?["total_num_of_questions"] == 2)
        }
    }

    @Test func offByDefaultTheRoutesAreNotThere() async throws {
        try await withApp { client, _ in
            let questions = try await client.call(.get, "/api.php?amount=1")
            let categories = try await client.call(.get, "/api_category.php")
            #expect(questions.status == .notFound && categories.status == .notFound)
        }
    }
}
