import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import OpenAPIRuntime
import QuizClient
import QuizCore
import QuizServer
import Testing

/// Carries the client's requests to the application under test without a socket.
struct RouterTransport: ClientTransport {
    let client: any TestClientProtocol

    func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        var bytes: ByteBuffer?
        if let body { bytes = ByteBuffer(bytes: try await [UInt8](collecting: body, upTo: 2 << 20)) }
        let path = baseURL.path + (request.path ?? "")
        return try await client.execute(uri: path, method: request.method, headers: request.headerFields, body: bytes) { response in
            (HTTPResponse(status: response.status, headerFields: response.headers), HTTPBody(Array(response.body.readableBytesView)))
        }
    }
}

@Suite struct QuizboxClientTests {
    @Test func theSwiftClientPlaysAQuizEndToEnd() async throws {
        try await withApp { client, _ in
            let api = QuizboxClient(serverURL: URL(string: "/api/v1")!, transport: RouterTransport(client: client))
            _ = try await api.register(username: "swifty", firstName: "Swift", lastName: "Client", password: "type safe!")
            try await api.logIn(username: "swifty", password: "type safe!")
            #expect(api.token != nil)
            let subject = try #require(try await api.subjects().first)
            let topic = try #require(try await api.topics(subjectId: subject.id).first)
            let quiz = try #require(try await api.quizzes(topicId: topic.id).first)
            let questions = try await api.questions(quizId: quiz.id)
            let attempt = try await api.startAttempt(quizId: quiz.id)
            let result = try await api.answer(attemptId: attempt.id, questionId: questions[2].id, with: .bool(true))
            #expect(result.verdict == .correct)
            let again = try await api.answer(attemptId: attempt.id, questionId: questions[2].id, with: .bool(false))
            #expect(again.verdict == .alreadyAnswered)
            let score = try await api.finish(attemptId: attempt.id)
            #expect(score.points == 1)
            #expect(try await api.me().points == 1)
            #expect(try await api.leaderboard().me.rank == 1)
            try await api.logOut()
            #expect(api.token == nil)
        }
    }

    @Test func refusalsArriveAsTypedErrors() async throws {
        try await withApp { client, _ in
            let api = QuizboxClient(serverURL: URL(string: "/api/v1")!, transport: RouterTransport(client: client))
            await #expect(throws: QuizboxClient.Error.api(status: 401, code: "invalid_credentials", message: "Wrong username or password.", field: nil)) {
                try await api.logIn(username: "nobody", password: "whatever1")
            }
            do {
                _ = try await api.me()
                Issue.record("expected a refusal")
            } catch let error as QuizboxClient.Error {
                guard case .api(401, "unauthenticated", _, _) = error else { Issue.record("got \(error)"); return }
            }
        }
    }
}
