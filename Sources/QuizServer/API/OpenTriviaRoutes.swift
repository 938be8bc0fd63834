import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import QuizCore
import QuizUseCases

/// Open Trivia DB's API at its own paths (`/api.php`, `/api_token.php`, `/api_category.php`,
/// `/api_count.php`, `/api_count_global.php`), so its clients need only a new base address. Not
/// in openapi.yaml: its contract is Open Trivia DB's, whose every outcome is a `response_code`
/// in a body of its own shape rather than Quizbox's error object.
struct OpenTriviaRoutes: Sendable {
    let trivia: OpenTrivia
    let requestInterval: TimeInterval

    func register(on router: Router<AppRequestContext>) {
        router.get("/api.php") { request, context -> Response in
            let query = request.uri.queryParameters
            func value(_ name: Substring) -> String? { query[name].map(String.init) }
            let response = try await trivia.questions(
                .init(amount: value("amount"), category: value("category"), difficulty: value("difficulty"), type: value("type"),
                      encode: value("encode"), token: value("token")),
                address: Self.address(context))
            return json(OpenTriviaWire.questions(response), code: response.code)
        }
        router.get("/api_token.php") { request, context -> Response in
            let query = request.uri.queryParameters
            let answer: OpenTrivia.TokenAnswer
            switch query["command"].map(String.init) {
            case "request"?: answer = try await trivia.requestToken(address: Self.address(context))
            case "reset"?: answer = try await trivia.resetToken(query["token"].map(String.init))
            default: answer = .init(code: .invalidParameter, message: "command must be request or reset")
            }
            return json(OpenTriviaWire.token(answer), code: answer.code, retryAfter: OpenTrivia.tokenRequestWindow)
        }
        router.get("/api_category.php") { _, _ -> Response in
            json(OpenTriviaWire.categories(try await trivia.categories()), code: .success)
        }
        router.get("/api_count.php") { request, _ -> Response in
            guard let counted = try await trivia.count(category: request.uri.queryParameters["category"].map(String.init)) else {
                let invalid = OpenTrivia.Code.invalidParameter
                return json(OpenTriviaWire.object([("response_code", OpenTriviaWire.number(invalid.rawValue))]), code: invalid)
            }
            return json(OpenTriviaWire.count(id: counted.id, counted.count), code: .success)
        }
        router.get("/api_count_global.php") { _, _ -> Response in
            let (overall, categories) = try await trivia.globalCount()
            return json(OpenTriviaWire.globalCount(overall: overall, categories: categories), code: .success)
        }
    }

    /// Set by `CredentialMiddleware` (a trusted proxy's client, else the peer).
    static func address(_ context: AppRequestContext) -> String { ClientAddress.current }

    /// 200 whatever the code, as Open Trivia DB answers, but for its rate limits: 429 with when to
    /// come back at the latest (`retryAfter` seconds, the request interval unless given).
    func json(_ body: String, code: OpenTrivia.Code, retryAfter: TimeInterval? = nil) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        var status = HTTPResponse.Status.ok
        if code == .rateLimit {
            status = .tooManyRequests
            headers[.retryAfter] = String(Int(max(1, (retryAfter ?? requestInterval).rounded(.up))))
        }
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: body)))
    }
}

/// The wire shapes, written by hand so their keys come in Open Trivia DB's order (strict clients
/// refuse extra keys; people comparing responses read them in this order).
enum OpenTriviaWire {
    static func string(_ text: String) -> String { JSONText.quoted(text) }
    static func number(_ value: some BinaryInteger) -> String { String(value) }

    static func object(_ members: [(String, String)]) -> String {
        "{" + members.map { "\(JSONText.quoted($0.0)):\($0.1)" }.joined(separator: ",") + "}"
    }

    static func array(_ items: [String]) -> String { "[" + items.joined(separator: ",") + "]" }

    static func questions(_ response: OpenTrivia.Response) -> String {
        object([("response_code", number(response.code.rawValue)), ("results", array(response.results.map {
            object([("type", string($0.type)), ("difficulty", string($0.difficulty)), ("category", string($0.category)),
                    ("question", string($0.question)), ("correct_answer", string($0.correctAnswer)),
                    ("incorrect_answers", array($0.incorrectAnswers.map(string)))])
        }))])
    }

    static func token(_ answer: OpenTrivia.TokenAnswer) -> String {
        var members = [("response_code", number(answer.code.rawValue))]
        if let message = answer.message { members.append(("response_message", string(message))) }
        if let token = answer.token { members.append(("token", string(token))) }
        return object(members)
    }

    static func categories(_ categories: [OpenTrivia.Category]) -> String {
        object([("trivia_categories", array(categories.map { object([("id", number($0.id)), ("name", string($0.name))]) }))])
    }

    static func count(id: Int64, _ count: OpenTrivia.Count) -> String {
        object([("category_id", number(id)), ("category_question_count", object([
            ("total_question_count", number(count.total)), ("total_easy_question_count", number(count.easy)),
            ("total_medium_question_count", number(count.medium)), ("total_hard_question_count", number(count.hard)),
        ]))])
    }

    /// Quizbox has no review queue: every question served counts as verified.
    static func globalCount(overall: Int, categories: [Int64: Int]) -> String {
        func counts(_ total: Int) -> String {
            object([("total_num_of_questions", number(total)), ("total_num_of_pending_questions", "0"),
                    ("total_num_of_verified_questions", number(total)), ("total_num_of_rejected_questions", "0")])
        }
        return object([("overall", counts(overall)),
                       ("categories", object(categories.sorted { $0.key < $1.key }.map { (String($0.key), counts($0.value)) }))])
    }
}
