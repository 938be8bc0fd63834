import Foundation
import HTTPTypes
import OpenAPIRuntime
// Re-exported: the client returns the generated wire types, so its users need them in scope.
@_exported import QuizAPI
import QuizCore
import Synchronization

/// A Swift client for the Quizbox API, over any OpenAPI transport (URLSession, AsyncHTTPClient, …).
/// After `logIn` it sends the session token with every request.
public final class QuizboxClient: Sendable {
    public enum Error: Swift.Error, Equatable, CustomStringConvertible {
        /// The server refused the request: its status, stable code, message and the bad field.
        case api(status: Int, code: String, message: String, field: String?)
        /// The server answered with something the API does not describe.
        case unexpectedResponse(status: Int)

        public var description: String {
            switch self {
            case .api(let status, let code, let message, _): "\(status) \(code): \(message)"
            case .unexpectedResponse(let status): "unexpected response (HTTP \(status))"
            }
        }
    }

    public typealias User = Components.Schemas.User
    public typealias Profile = Components.Schemas.Profile
    public typealias Subject = Components.Schemas.Subject
    public typealias Topic = Components.Schemas.Topic
    public typealias Quiz = Components.Schemas.Quiz
    public typealias Question = Components.Schemas.Question
    public typealias Attempt = Components.Schemas.Attempt
    public typealias AnswerResult = Components.Schemas.AnswerResult
    public typealias AttemptResult = Components.Schemas.AttemptResult
    public typealias Leaderboard = Components.Schemas.Leaderboard

    private let client: Client
    private let tokenBox: TokenBox

    /// - Parameter serverURL: the API's base, e.g. `http://localhost:8080/api/v1`.
    public init(serverURL: URL, transport: any ClientTransport, token: String? = nil) {
        let box = TokenBox(token)
        tokenBox = box
        client = Client(serverURL: serverURL, transport: transport, middlewares: [BearerMiddleware(box: box)])
    }

    /// The session token in use, if logged in.
    public var token: String? { tokenBox.value.withLock { $0 } }

    public func register(username: String, firstName: String, lastName: String, password: String) async throws -> User {
        switch try await client.registerUser(body: .json(.init(username: username, firstName: firstName, lastName: lastName, password: password))) {
        case .created(let created): return try created.body.json
        case .default(let status, let response): throw Self.error(status, response)
        }
    }

    @discardableResult
    public func logIn(username: String, password: String) async throws -> User {
        switch try await client.logIn(body: .json(.init(username: username, password: password))) {
        case .ok(let ok):
            let session = try ok.body.json
            tokenBox.value.withLock { $0 = session.token }
            return session.user
        case .default(let status, let response): throw Self.error(status, response)
        }
    }

    public func logOut() async throws {
        switch try await client.logOut() {
        case .noContent: tokenBox.value.withLock { $0 = nil }
        case .default(let status, let response): throw Self.error(status, response)
        }
    }

    public func me() async throws -> Profile {
        switch try await client.getMe() {
        case .ok(let ok): return try ok.body.json
        case .default(let status, let response): throw Self.error(status, response)
        }
    }

    public func subjects() async throws -> [Subject] {
        switch try await client.listSubjects() {
        case .ok(let ok): return try ok.body.json.subjects
        case .default(let status, let response): throw Self.error(status, response)
        }
    }

    public func topics(subjectId: Int64) async throws -> [Topic] {
        switch try await client.listTopics(path: .init(subjectId: subjectId)) {
        case .ok(let ok): return try ok.body.json.topics
        case .default(let status, let response): throw Self.error(status, response)
        }
    }

    public func quizzes(topicId: Int64) async throws -> [Quiz] {
        switch try await client.listQuizzes(path: .init(topicId: topicId)) {
        case .ok(let ok): return try ok.body.json.quizzes
        case .default(let status, let response): throw Self.error(status, response)
        }
    }

    public func questions(quizId: Int64) async throws -> [Question] {
        switch try await client.listQuizQuestions(path: .init(quizId: quizId)) {
        case .ok(let ok): return try ok.body.json.questions
        case .default(let status, let response): throw Self.error(status, response)
        }
    }

    public func startAttempt(quizId: Int64) async throws -> Attempt {
        switch try await client.startAttempt(path: .init(quizId: quizId)) {
        case .created(let created): return try created.body.json
        case .default(let status, let response): throw Self.error(status, response)
        }
    }

    public func answer(attemptId: Int64, questionId: Int64, with answer: Answer) async throws -> AnswerResult {
        let body = Components.Schemas.AnswerRequest(questionId: questionId, answer: .init(answer))
        switch try await client.submitAnswer(path: .init(attemptId: attemptId), body: .json(body)) {
        case .ok(let ok): return try ok.body.json
        case .default(let status, let response): throw Self.error(status, response)
        }
    }

    public func finish(attemptId: Int64) async throws -> AttemptResult {
        switch try await client.finishAttempt(path: .init(attemptId: attemptId)) {
        case .ok(let ok): return try ok.body.json
        case .default(let status, let response): throw Self.error(status, response)
        }
    }

    public func leaderboard(limit: Int? = nil) async throws -> Leaderboard {
        switch try await client.getLeaderboard(query: .init(limit: limit)) {
        case .ok(let ok): return try ok.body.json
        case .default(let status, let response): throw Self.error(status, response)
        }
    }

    private static func error(_ status: Int, _ response: Components.Responses._Error) -> Error {
        guard let body = try? response.body.json else { return .unexpectedResponse(status: status) }
        return .api(status: status, code: body.error.code, message: body.error.message, field: body.error.field)
    }
}

extension Components.Schemas.AnswerInput {
    /// The wire field that carries each kind of domain answer.
    init(_ answer: Answer) {
        switch answer {
        case .choice(let id): self.init(choiceId: id)
        case .choices(let ids): self.init(choiceIds: ids.sorted())
        case .bool(let value): self.init(value: value)
        case .text(let text): self.init(text: text)
        case .number(let number): self.init(number: number)
        }
    }
}

final class TokenBox: Sendable {
    let value: Mutex<String?>
    init(_ token: String?) { value = Mutex(token) }
}

/// Adds `Authorization: Bearer …` once a token is known.
struct BearerMiddleware: ClientMiddleware {
    let box: TokenBox

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        if let token = box.value.withLock({ $0 }) { request.headerFields[.authorization] = "Bearer \(token)" }
        return try await next(request, body, baseURL)
    }
}
