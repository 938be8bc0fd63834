import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import QuizCore
import QuizServer
import Testing

/// Whatever a client sends, the answer is a 4xx with the JSON error shape, never a 500.
@Suite struct BadInputAPITests {
    @Test func malformedJSONIsABadRequest() async throws {
        try await withApp { client, _ in
            let response = try await client.call(.post, "/api/v1/users", rawBody: "{\"username\": ")
            #expect(response.status == .badRequest)
            #expect(response.errorCode == "invalid_json")
        }
    }

    @Test func aFieldOfTheWrongTypeIsNamed() async throws {
        try await withApp { client, _ in
            let response = try await client.call(.post, "/api/v1/users", json: [
                "username": 42, "firstName": "A", "lastName": "B", "password": "long enough",
            ])
            #expect(response.status == .badRequest)
            #expect(response.errorField == "username")
            let missing = try await client.call(.post, "/api/v1/sessions", json: ["username": "x"])
            #expect(missing.status == .badRequest)
            #expect(missing.errorField == "password")
        }
    }

    @Test func aBodyOverOneMebibyteIsRefused() async throws {
        try await withApp { client, _ in
            let huge = String(repeating: "a", count: (1 << 20) + 10)
            let response = try await client.call(.post, "/api/v1/users", json: [
                "username": "big", "firstName": huge, "lastName": "B", "password": "long enough",
            ])
            #expect(response.status == .contentTooLarge)
            #expect(response.errorCode == "body_too_large")
        }
    }

    @Test func unknownIdsAndAddressesAreNotFound() async throws {
        try await withApp { client, _ in
            let token = try await client.signUp("ada")
            for uri in ["/api/v1/subjects/999/topics", "/api/v1/topics/999/quizzes", "/api/v1/quizzes/999",
                        "/api/v1/quizzes/999/questions", "/api/v1/nothing-here"] {
                let response = try await client.call(.get, uri)
                #expect(response.status == .notFound, "\(uri)")
                #expect(response.errorCode == "not_found", "\(uri)")
            }
            #expect(try await client.call(.post, "/api/v1/quizzes/999/attempts", token: token).status == .notFound)
            #expect(try await client.call(.get, "/api/v1/attempts/999", token: token).status == .notFound)
        }
    }

    @Test func aNonNumericIdIsABadRequest() async throws {
        try await withApp { client, _ in
            let response = try await client.call(.get, "/api/v1/quizzes/abc")
            #expect(response.status == .badRequest)
            #expect(response.errorCode != nil)
        }
    }

    @Test func answersThatDoNotFitTheQuestionAreRefusedAndNotRecorded() async throws {
        try await withApp { client, _ in
            let token = try await client.signUp("ada")
            let (quizId, questions) = try await client.firstQuiz()
            let attemptId = try #require(try await client.call(.post, "/api/v1/quizzes/\(quizId)/attempts", token: token)["id"] as? Int)
            let uri = "/api/v1/attempts/\(attemptId)/answers"
            let first = questions[0]["id"] as? Int ?? 0
            let cases: [([String: Any], String)] = [
                (["questionId": first, "answer": ["text": "Jupiter"]], "answer_does_not_fit"),
                (["questionId": first, "answer": ["choiceId": 7]], "unknown_choice"),
                (["questionId": first, "answer": [:] as [String: Any]], "invalid_answer"),
                (["questionId": first, "answer": ["choiceId": 2, "text": "x"]], "invalid_answer"),
                // An empty answer is no answer, as on the pages and in live games.
                (["questionId": first, "answer": ["choiceIds": [Int]()]], "invalid_answer"),
                (["questionId": questions[3]["id"] as? Int ?? 0, "answer": ["text": ""]], "invalid_answer"),
                (["questionId": 999_999, "answer": ["choiceId": try await client.choiceId("Jupiter", question: 1)]], "question_not_in_quiz"),
                (["questionId": questions[3]["id"] as? Int ?? 0, "answer": ["text": String(repeating: "x", count: 10_000)]], "answer_too_long"),
            ]
            for (body, code) in cases {
                let response = try await client.call(.post, uri, token: token, json: body)
                #expect(response.status == .unprocessableContent, "\(code): \(response.raw)")
                #expect(response.errorCode == code)
            }
            // Said in the asker's language, as every API error.
            var headers = HTTPFields()
            headers[.authorization] = "Bearer \(token)"
            headers[.contentType] = "application/json"
            headers[.acceptLanguage] = "fi"
            let empty = #"{"questionId":\#(first),"answer":{"choiceIds":[]}}"#
            let finnish = try await client.execute(uri: uri, method: .post, headers: headers, body: ByteBuffer(string: empty)) { String(buffer: $0.body) }
            #expect(finnish.contains("Vastaus ei saa olla tyhjä"), "\(finnish)")
            let attempt = try await client.call(.get, "/api/v1/attempts/\(attemptId)", token: token)
            #expect((attempt["answers"] as? [Any])?.isEmpty == true)
            // The question can still be answered properly afterwards.
            let ok = try await client.call(.post, uri, token: token, json: ["questionId": first, "answer": ["choiceId": try await client.choiceId("Jupiter", question: 1)]])
            #expect(ok["verdict"] as? String == "correct")
        }
    }

    @Test func anOutOfRangeLeaderboardLimitIsNamed() async throws {
        try await withApp { client, _ in
            let token = try await client.signUp("ada")
            let response = try await client.call(.get, "/api/v1/leaderboard?limit=0", token: token)
            #expect(response.status.code / 100 == 4)
            #expect(try await client.call(.get, "/api/v1/leaderboard?limit=abc", token: token).status == .badRequest)
        }
    }

    @Test func healthAndTheSpecAreServed() async throws {
        try await withApp { client, _ in
            let health = try await client.call(.get, "/health")
            #expect(health.status == .ok)
            #expect(health["status"] as? String == "ok")
            let spec = try await client.call(.get, "/api/openapi.yaml")
            #expect(spec.status == .ok)
            #expect(spec.raw.contains("operationId: submitAnswer"))
            #expect(spec.headers[.contentSecurityPolicy] != nil)
        }
    }
}
