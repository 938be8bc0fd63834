import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import QuizFormats

/// An error a client can act on: a status, a stable code, a message for people, and the bad field.
public struct APIError: Error, Sendable, Equatable {
    public var status: HTTPResponse.Status
    public var code: String
    public var message: String
    public var field: String?
    /// For imports: every problem found in the file, each with where it is.
    public var problems: [FormatProblem] = []
    /// Seconds to wait before trying again (429, 503), sent as `Retry-After`.
    public var retryAfter: Int?

    public init(_ status: HTTPResponse.Status, _ code: String, _ message: String, field: String? = nil, problems: [FormatProblem] = []) {
        self.status = status
        self.code = code
        self.message = message
        self.field = field
        self.problems = problems
    }

    static func notFound(_ what: String) -> APIError {
        APIError(.notFound, "not_found", "No \(what) with that id.")
    }

    static let unauthenticated = APIError(.unauthorized, "unauthenticated", "Log in first: send a bearer token or the session cookie.")
    static let invalidToken = APIError(.unauthorized, "invalid_token", "This token or session is not valid. Log in again.")
    static let sessionExpired = APIError(.unauthorized, "session_expired", "Your session has expired. Log in again.")

    private struct Body: Encodable {
        struct Problem: Encodable {
            var line: Int?
            var column: Int?
            var path: String?
            var question: String?
            var message: String
            var description: String
        }
        struct Detail: Encodable {
            var code: String
            var message: String
            var field: String?
            var problems: [Problem]?
        }
        var error: Detail
    }

    func response() -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let list = problems.map {
            Body.Problem(line: $0.line, column: $0.column, path: $0.path, question: $0.question, message: $0.message, description: $0.description)
        }
        let data = (try? encoder.encode(Body(error: .init(code: code, message: message, field: field,
                                                          problems: list.isEmpty ? nil : list)))) ?? Data()
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=utf-8"
        if status == .unauthorized { headers[.wwwAuthenticate] = "Bearer" }
        if let retryAfter { headers[.retryAfter] = String(retryAfter) }
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
