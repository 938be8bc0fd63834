import Foundation
import HTTPTypes
import NIOCore
import OpenAPIRuntime
// Re-exported: the client returns the generated wire types, so its users need them in scope.
@_exported import QuizAPI
// Re-exported: answers are QuizCore's `Answer`, one case per kind of question.
@_exported import QuizCore
import Synchronization

/// A Swift client for the Quizbox API, for an app or a command-line tool: sign in, the catalog,
/// quizzes played question by question, practice, single questions, "name them all" games, the
/// leaderboard and live games.
///
/// It speaks over any OpenAPI transport, so the app picks its HTTP stack: `URLSessionTransport`
/// (swift-openapi-urlsession) on iOS and macOS, `AsyncHTTPClientTransport` on Linux. After
/// ``logIn(username:password:)`` it sends the session token with every request. Every method
/// throws ``Error``: the API's own code and message, or why the server could not be reached.
///
/// ```swift
/// import OpenAPIURLSession
/// import QuizClient
///
/// let quizbox = QuizboxClient(
///     serverURL: URL(string: "https://quiz.example.org/api/v1")!, transport: URLSessionTransport())
/// try await quizbox.logIn(username: "ada", password: "analytical engine")
/// let subject = try await quizbox.subjects()[0]
/// let topic = try await quizbox.topics(subjectId: subject.id)[0]
/// let quiz = try await quizbox.quizzes(topicId: topic.id)[0]
/// let attempt = try await quizbox.startAttempt(quizId: quiz.id)
/// for question in try await quizbox.questions(quizId: quiz.id) {
///     let result = try await quizbox.answer(
///         attemptId: attempt.id, questionId: question.id, with: .choice(question.choices?.first?.id ?? 0))
///     print(result.verdict, result.correctAnswer.display, result.explanation ?? "")
/// }
/// let score = try await quizbox.finish(attemptId: attempt.id)
/// print("\(score.correctCount)/\(score.questionCount), \(score.points) points, rank \(score.rank)")
/// ```
///
/// A live game is joined with ``joinLiveGame(pin:nickname:team:)``, which returns a
/// ``LiveGameConnection`` whose `events` are the server's messages, typed.
public final class QuizboxClient: Sendable {
    public enum Error: Swift.Error, Equatable, CustomStringConvertible {
        /// The server refused the request: its status, stable code, message and the bad field.
        case api(status: Int, code: String, message: String, field: String?)
        /// The server answered with something the API does not describe.
        case unexpectedResponse(status: Int)
        /// No answer from the server: it is down, the address is wrong, or the network failed.
        case unreachable(String)
        /// A live game refused a message: the protocol's error code (`unknown-game`, `nickname-taken`…) and message.
        case live(code: String, message: String)

        public var description: String {
            switch self {
            case .api(let status, let code, let message, _): "\(status) \(code): \(message)"
            case .unexpectedResponse(let status): "unexpected response (HTTP \(status))"
            case .unreachable(let reason): "could not reach the server: \(reason)"
            case .live(let code, let message): "\(code): \(message)"
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

    let client: Client
    private let tokenBox: SharedString
    /// The API's base, e.g. `http://localhost:8080/api/v1`; the live socket is found from it.
    public let serverURL: URL

    /// - Parameter serverURL: the API's base, e.g. `http://localhost:8080/api/v1`.
    public init(serverURL: URL, transport: any ClientTransport, token: String? = nil) {
        let box = SharedString(token)
        tokenBox = box
        self.serverURL = serverURL
        client = Client(serverURL: serverURL, transport: transport, middlewares: [BearerMiddleware(box: box)])
    }

    /// The session token in use, if logged in.
    public var token: String? { tokenBox.value.withLock { $0 } }

    public func register(username: String, firstName: String, lastName: String, password: String) async throws(Error) -> User {
        try await perform {
            switch try await client.registerUser(body: .json(.init(username: username, firstName: firstName, lastName: lastName, password: password))) {
            case .created(let created): return try created.body.json
            case .default(let status, let response): throw Self.error(status, response)
            }
        }
    }

    @discardableResult
    public func logIn(username: String, password: String) async throws(Error) -> User {
        let session = try await perform {
            switch try await client.logIn(body: .json(.init(username: username, password: password))) {
            case .ok(let ok): return try ok.body.json
            case .default(let status, let response): throw Self.error(status, response)
            }
        }
        tokenBox.value.withLock { $0 = session.token }
        return session.user
    }

    public func logOut() async throws(Error) {
        try await perform {
            switch try await client.logOut() {
            case .noContent: tokenBox.value.withLock { $0 = nil }
            case .default(let status, let response): throw Self.error(status, response)
            }
        }
    }

    public func me() async throws(Error) -> Profile {
        try await perform {
            switch try await client.getMe() {
            case .ok(let ok): return try ok.body.json
            case .default(let status, let response): throw Self.error(status, response)
            }
        }
    }

    public func leaderboard(limit: Int? = nil) async throws(Error) -> Leaderboard {
        try await perform {
            switch try await client.getLeaderboard(query: .init(limit: limit)) {
            case .ok(let ok): return try ok.body.json
            case .default(let status, let response): throw Self.error(status, response)
            }
        }
    }

    /// Runs one call of the generated client, so that every failure leaves as an ``Error``.
    func perform<T>(_ call: () async throws -> T) async throws(Error) -> T {
        do {
            return try await call()
        } catch let error as Error {
            throw error
        } catch let error as ClientError {
            // With a response the server answered but not as described; without one it never answered.
            if let response = error.response { throw .unexpectedResponse(status: response.status.code) }
            throw .unreachable(Self.reason(error.underlyingError))
        } catch {
            throw .unreachable(Self.reason(error))
        }
    }

    static func reason(_ error: any Swift.Error) -> String {
        // A system call's failure (connection refused, no route to host…) in the system's words.
        if let failure = error as? IOError { return String(cString: strerror(failure.errnoCode)).lowercased() }
        let text = String(describing: error)
        // NIO's connection errors describe themselves at length; the first line says what happened.
        return text.split(separator: "\n").first.map(String.init) ?? text
    }

    static func error(_ status: Int, _ response: Components.Responses._Error) -> Error {
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
        case .order(let ids): self.init(order: ids)
        case .matches(let matches):
            self.init(matches: .init(additionalProperties: Dictionary(uniqueKeysWithValues: matches.map { (String($0.key), $0.value) })))
        case .read: self.init(read: true)
        case .gaps(let gaps):
            self.init(gaps: .init(additionalProperties: Dictionary(uniqueKeysWithValues: gaps.map { key, gap in
                switch gap {
                case .choice(let id): (String(key), Components.Schemas.GapAnswerInput(choiceId: id))
                case .text(let text): (String(key), Components.Schemas.GapAnswerInput(text: text))
                }
            })))
        }
    }
}

/// A string shared between tasks: the session token, or why a socket failed.
final class SharedString: Sendable {
    let value: Mutex<String?>
    init(_ value: String?) { self.value = Mutex(value) }
}

/// Adds `Authorization: Bearer …` once a token is known.
struct BearerMiddleware: ClientMiddleware {
    let box: SharedString

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        if let token = box.value.withLock({ $0 }) { request.headerFields[.authorization] = "Bearer \(token)" }
        return try await next(request, body, baseURL)
    }
}
