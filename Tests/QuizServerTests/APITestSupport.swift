import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import QuizCore
import QuizServer
import QuizStore
import QuizTestSupport
import Testing

/// The id of the choice `text` in a question as the API listed it.
func choiceId(_ text: String, in question: [String: Any]) -> Int {
    (question["choices"] as? [[String: Any]])?.first { $0["text"] as? String == text }?["id"] as? Int ?? 0
}

/// A small bank with one question of every playable kind, in a known order.
func sampleBank() -> Bank {
    let questions: [Question] = [
        Question(text: "Which planet is largest?", explanation: "Jupiter is the largest planet.", difficulty: .easy, points: 1,
                 body: .singleChoice([Choice(id: 1, text: "Mars", isCorrect: false), Choice(id: 2, text: "Jupiter", isCorrect: true)])),
        Question(text: "Which are gas giants? Select all that apply.", difficulty: .medium, points: 2, body: .multipleChoice([
            Choice(id: 1, text: "Jupiter", isCorrect: true), Choice(id: 2, text: "Saturn", isCorrect: true),
            Choice(id: 3, text: "Venus", isCorrect: false),
        ])),
        Question(text: "The Sun is a star.", difficulty: .easy, body: .trueFalse(true)),
        Question(text: "Capital of France?", explanation: "Paris has been the capital since 987.", body: .typedAnswer(["Paris"])),
        Question(text: "How many planets?", difficulty: .hard, points: 3, body: .numeric(value: 8, tolerance: 0, unit: "planets")),
    ]
    return Bank(subjects: [BankSubject(name: "Science", description: "Natural science", topics: [
        BankTopic(name: "Astronomy", description: "Space", quizzes: [BankQuiz(title: "Planets", description: "Our neighbours", questions: questions)]),
    ])])
}

struct TestEnvironment {
    let store: CachedStore
    let time: ManualTimeSource
    let config: ServerConfig
}

/// Which database the API tests run on: SQLite, or PostgreSQL when `QUIZBOX_TEST_API_DATABASE=postgres`
/// (scripts/test runs this suite a second time that way, on its throwaway server).
let apiTestsOnPostgres = ProcessInfo.processInfo.environment["QUIZBOX_TEST_API_DATABASE"] == "postgres"

/// Builds the real application on a fresh database with the sample bank, and runs `body` against its router
/// (or, with `.live`, against the application listening on a port of its own: `client.port`).
func withApp(
    _ setup: TestingSetup = .router,
    configure: (inout ServerConfig) -> Void = { _ in },
    _ body: @escaping @Sendable (any TestClientProtocol, TestEnvironment) async throws -> Void
) async throws {
    if apiTestsOnPostgres {
        try await TestPostgres.withFreshDatabase { url in try await withApp(database: url, setup: setup, configure: configure, body) }
    } else {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("quizbox-api-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        try await withApp(database: path, setup: setup, configure: configure, body)
    }
}

private func withApp(
    database location: String, setup: TestingSetup, configure: (inout ServerConfig) -> Void,
    _ body: @escaping @Sendable (any TestClientProtocol, TestEnvironment) async throws -> Void
) async throws {
    var config = ServerConfig()
    config.database = location
    config.bcryptCost = 4
    config.loadStarterBank = false
    config.remoteImportAllowPrivate = true  // the tests' bank servers listen on loopback
    let data = FileManager.default.temporaryDirectory.appendingPathComponent("quizbox-data-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: data) }
    config.dataDirectory = data
    configure(&config)
    var logger = Logger(label: "quizbox-test")
    logger.logLevel = .warning
    let time = ManualTimeSource()
    let database = try await QuizDatabase.open(location, poolSize: 2, logger: logger)
    try await prepare(database: database, config: config, time: time, logger: logger)
    let store = CachedStore(SQLStore(database: database))
    _ = try await store.importBank(sampleBank(), at: time.now())
    let app = try await buildApplication(config: config, database: database, time: time, logger: logger)
    let environment = TestEnvironment(store: store, time: time, config: config)
    try await app.test(setup) { client in try await body(client, environment) }
}

// MARK: - Requests

struct JSONResponse {
    let status: HTTPResponse.Status
    let headers: HTTPFields
    let json: [String: Any]
    let raw: String

    subscript(key: String) -> Any? { json[key] }
    var errorCode: String? { (json["error"] as? [String: Any])?["code"] as? String }
    var errorField: String? { (json["error"] as? [String: Any])?["field"] as? String }
}

extension TestClientProtocol {
    @discardableResult
    func call(
        _ method: HTTPRequest.Method, _ uri: String, token: String? = nil, cookie: String? = nil,
        json body: Any? = nil, rawBody: String? = nil, contentType: String = "application/json"
    ) async throws -> JSONResponse {
        var headers = HTTPFields()
        if let token { headers[.authorization] = "Bearer \(token)" }
        if let cookie { headers[.cookie] = cookie }
        var buffer: ByteBuffer?
        if let body {
            buffer = ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: body))
        } else if let rawBody {
            buffer = ByteBuffer(string: rawBody)
        }
        if buffer != nil { headers[.contentType] = contentType }
        return try await execute(uri: uri, method: method, headers: headers, body: buffer) { response in
            let raw = String(buffer: response.body)
            let json = (try? JSONSerialization.jsonObject(with: Data(raw.utf8))) as? [String: Any] ?? [:]
            return JSONResponse(status: response.status, headers: response.headers, json: json, raw: raw)
        }
    }

    /// Registers and logs in; returns the bearer token.
    func signUp(_ username: String, password: String = "correct horse") async throws -> String {
        let created = try await call(.post, "/api/v1/users", json: [
            "username": username, "firstName": "Test", "lastName": "User", "password": password,
        ])
        #expect(created.status == .created, "\(created.raw)")
        let session = try await call(.post, "/api/v1/sessions", json: ["username": username, "password": password])
        return try #require(session["token"] as? String)
    }

    /// The id the server shows for the choice `text` of question `questionId` (never its place in
    /// the file): read from the quiz's question list, as a client reads it.
    func choiceId(_ text: String, question questionId: Int, quiz quizId: Int = 1) async throws -> Int {
        let questions = try await call(.get, "/api/v1/quizzes/\(quizId)/questions")["questions"] as? [[String: Any]] ?? []
        let question = try #require(questions.first { $0["id"] as? Int == questionId })
        let choices = question["choices"] as? [[String: Any]] ?? []
        return try #require(choices.first { $0["text"] as? String == text }?["id"] as? Int, "no choice \(text) in \(questionId)")
    }

    /// The first quiz's id and its questions as the API lists them.
    func firstQuiz() async throws -> (id: Int, questions: [[String: Any]]) {
        let subjects = try await call(.get, "/api/v1/subjects")["subjects"] as? [[String: Any]] ?? []
        let subjectId = try #require(subjects.first?["id"] as? Int)
        let topics = try await call(.get, "/api/v1/subjects/\(subjectId)/topics")["topics"] as? [[String: Any]] ?? []
        let topicId = try #require(topics.first?["id"] as? Int)
        let quizzes = try await call(.get, "/api/v1/topics/\(topicId)/quizzes")["quizzes"] as? [[String: Any]] ?? []
        let quizId = try #require(quizzes.first?["id"] as? Int)
        let questions = try await call(.get, "/api/v1/quizzes/\(quizId)/questions")["questions"] as? [[String: Any]] ?? []
        return (quizId, questions)
    }
}
