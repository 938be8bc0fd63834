import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import QuizFormats
import QuizText

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

    /// A query parameter's value, or its default; 422 naming the parameter when outside `range`.
    static func checked(_ value: Int?, _ name: String, default fallback: Int, in range: ClosedRange<Int>) throws -> Int {
        let value = value ?? fallback
        guard range.contains(value) else {
            let bound = range.upperBound == .max ? "at least \(range.lowerBound)" : "between \(range.lowerBound) and \(range.upperBound)"
            throw APIError(.unprocessableContent, "invalid_\(name)", "\(name) must be \(bound).", field: name)
        }
        return value
    }

    /// `body`'s result, a use case's failure of type `Failure` thrown as the API's error instead.
    static func translating<Failure: Error, T>(_ translate: (Failure) -> APIError, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let failure as Failure {
            throw translate(failure)
        }
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
            /// A spreadsheet's cell, "H12".
            var cell: String?
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

    static func excerpt(_ text: String, _ limit: Int) -> String {
        text.count <= limit ? text : text.prefix(limit - 1) + "…"
    }

    func response(language: Language = .en) -> Response {
        let t = Texts.of(language)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        // A problem quotes the file: only a short excerpt, however long the field it found.
        let list = problems.prefix(200).map {
            Body.Problem(line: $0.line, column: $0.column, path: $0.path.map { Self.excerpt($0, 200) }, cell: $0.cell?.reference,
                         question: $0.question.map { Self.excerpt($0, 120) },
                         message: Self.excerpt(t($0.message), 300), description: Self.excerpt($0.description(t), 500))
        }
        let data = (try? encoder.encode(Body(error: .init(code: code, message: t(message), field: field,
                                                          problems: list.isEmpty ? nil : list)))) ?? Data()
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=utf-8"
        if status == .unauthorized { headers[.wwwAuthenticate] = "Bearer" }
        if let retryAfter { headers[.retryAfter] = String(retryAfter) }
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
