import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import QuizCore
import QuizServer
import QuizStore
import Testing

/// The smaller findings of the security review: what a client gets back for ids, ranges and
/// imports that are not what the server expects.
@Suite struct InputEdgeTests {
    @Test func aBadPathIdIsAnInvalidRequestOrANotFoundPage() async throws {
        try await withApp { client, _ in
            let token = try await client.signUp("ada")
            for path in ["/api/v1/quizzes/abc", "/api/v1/quizzes/99999999999999999999", "/api/v1/attempts/abc",
                         "/api/v1/attempts/1/questions/x"] {
                let answer = try await client.call(.get, path, token: token)
                #expect(answer.status == .badRequest, "\(path)")
                #expect(answer.errorCode == "invalid_request", "\(path): \(answer.raw)")
            }
            let browser = TestBrowser(client)
            try await browser.register("bob")
            for path in ["/quizzes/abc", "/play/abc", "/subjects/1x", "/play/1/questions/abc"] {
                let page = try await browser.get(path)
                #expect(page.status == .notFound, "\(path)")
                #expect(!page.contains("can not be converted"), "\(path)")
            }
        }
    }

    @Test func limitsAndOffsetsOutsideTheirRangeAre422() async throws {
        try await withApp { client, env in
            let token = try await client.signUp("boss")
            try await env.store.setRole(.admin, username: "boss")
            env.time.advance(by: env.config.resolvedCacheLifetime + 0.1)
            for path in ["/api/v1/feed?limit=51", "/api/v1/feed?limit=0", "/api/v1/users?q=a&limit=51", "/api/v1/users?q=a&limit=0",
                         "/api/v1/manage/users?offset=-1", "/api/v1/manage/users?limit=101", "/api/v1/articles?offset=-1",
                         "/api/v1/leaderboard?limit=101"] {
                let answer = try await client.call(.get, path, token: token)
                #expect(answer.status == .unprocessableContent, "\(path): \(answer.raw)")
                #expect(answer.errorField == "limit" || answer.errorField == "offset", "\(path)")
            }
            // Too large for the parameter's type: a 400 naming the problem, not a crash.
            let huge = try await client.call(.get, "/api/v1/users?q=a&limit=13105808567", token: token)
            #expect(huge.status.code == 400 || huge.status.code == 422, "\(huge.raw)")
            #expect(huge.errorCode != "invalid_json")
        }
    }

    func importing(_ client: any TestClientProtocol, _ token: String, _ body: String, format: String) async throws -> JSONResponse {
        try await AuthoringAPITests().upload(client, "format=\(format)", token: token, body: body)
    }

    @Test func importsRefuseNULsAndQuoteOnlyAnExcerpt() async throws {
        try await withApp { client, env in
            let token = try await client.signUp("writer")
            try await env.store.setRole(.author, username: "writer")
            env.time.advance(by: env.config.resolvedCacheLifetime + 0.1)
            let nul = try await importing(client, token, "Which is a colour?\u{0} {=red ~table}\n", format: "gift")
            #expect(nul.status == .unprocessableContent, "\(nul.raw)")
            #expect(nul.raw.contains("NUL"))
            let escaped = try await importing(client, token, #"{"question": "Name\u0000 them", "answer": ["a"]}"#, format: "remote")
            #expect(escaped.status == .unprocessableContent, "\(escaped.raw)")
            // A 1 MB question with a broken answer: the error quotes a few words of it, not all.
            let long = String(repeating: "very long question ", count: 50_000)
            let broken = try await importing(client, token, "\(long) {=red ~red ~=blue =green ~}\n", format: "gift")
            #expect(broken.status == .unprocessableContent)
            #expect(broken.raw.utf8.count < 20_000, "\(broken.raw.utf8.count) bytes")
            #expect(try await env.store.subjects().allSatisfy { $0.name != "Imported" })
        }
    }
}
