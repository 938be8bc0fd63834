import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import OpenAPIRuntime
import QuizCore
import QuizStore
import QuizText
import QuizUseCases

/// Turns every error into the JSON error shape; nothing raw from a parser or database reaches a client.
/// Pages get the same errors as pages in the app's style.
struct ErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    let renderer: PageRenderer
    /// The signed-in user, so an error page keeps the header and tabs of the app.
    let signedInUser: @Sendable (Request) async -> User?

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            let apiError = Self.apiError(for: error)
            // The server's own failures are errors; a busy server (503) or an unreachable remote
            // (502) is worth a warning, and a client's mistake or hang-up nothing above debug.
            let metadata: Logger.Metadata = ["error": "\(String(reflecting: error))", "path": "\(request.uri.path)"]
            switch apiError.status.code {
            case 502, 503: context.logger.warning("request refused", metadata: metadata)
            case 500...: context.logger.error("request failed", metadata: metadata)
            default: context.logger.debug("request refused", metadata: metadata)
            }
            let path = request.uri.path
            // API codes stay as they are; the message follows the request's language.
            if path.hasPrefix("/api/") || path == "/health" || path.hasPrefix("/static/") {
                return apiError.response(language: Language.preferred(acceptLanguage: request.headers[.acceptLanguage]) ?? .en)
            }
            let user = await signedInUser(request)
            let language = user?.language.flatMap(Language.init(rawValue:)) ?? PageMiddleware.language(request)
            return page(for: apiError, user: user, language: language)
        }
    }

    func page(for error: APIError, user: User?, language: Language = .en) -> Response {
        let username = user?.username
        let t = Texts.of(language)
        let (english, englishMessage): (String, String) = switch error.status.code {
        case 404: ("Page not found", "There is nothing at this address. It may have moved, or the link may be mistyped.")
        case 400..<500: ("That did not work", error.message)
        case 503: ("Try again in a moment", error.message)
        default: ("Something went wrong", "Quizbox could not finish this request. It has been logged; please try again in a moment.")
        }
        let (heading, message) = (t(english), t(englishMessage))
        var context: [String: Any] = ["pageTitle": heading, "heading": heading, "message": message, "signedIn": username != nil,
                                      PageRenderer.languageKey: language.rawValue]
        if let username { context["username"] = username }
        context["chrome"] = renderer.chrome(PageChrome(language: language, title: heading, username: username,
                                                       canAuthor: user?.role.canAuthor ?? false))
        var response = renderer.render("error", context, status: error.status)
        if let seconds = error.retryAfter { response.headers[.retryAfter] = String(seconds) }
        return response
    }

    static func apiError(for error: any Error) -> APIError {
        switch error {
        case let error as APIError:
            return error
        case let error as ServerError:
            // With its input decoded, the request was fine: the handler (or encoding its answer) failed,
            // and a database error there is the server's (500), or 503 when the database is away,
            // not the request's. A handler reading a body of its own may still report bad JSON.
            if error.operationInput != nil, !(error.underlyingError is DecodingError) { return apiError(for: error.underlyingError) }
            return apiError(forRequestError: error.underlyingError, hadBody: hasBody(error.request))
        case is PasswordHasher.Busy:
            var busy = APIError(.serviceUnavailable, "busy", "Quizbox is busy checking passwords. Please try again in a few seconds.")
            busy.retryAfter = 5
            return busy
        case is NIOTooManyBytesError:
            return APIError(.contentTooLarge, "body_too_large", "The request body is larger than the limit.")
        case QuizDatabase.Error.unavailable:
            return APIError(.serviceUnavailable, "database_unavailable",
                            "Quizbox cannot reach its database right now. Please try again in a moment.")
        case let error as HTTPError:
            switch error.status {
            case .notFound: return APIError(.notFound, "not_found", "There is nothing at this address.")
            case .contentTooLarge: return APIError(.contentTooLarge, "body_too_large", "The request body is larger than the limit.")
            case .methodNotAllowed: return APIError(.methodNotAllowed, "method_not_allowed", "This address does not accept that method.")
            default:
                return APIError(error.status, "http_\(error.status.code)", error.body ?? error.status.reasonPhrase)
            }
        default:
            return APIError(.internalServerError, "internal", "Something went wrong on the server. It has been logged.")
        }
    }

    /// Whether a write said it carries a body (a length above zero, or chunks); reads need none.
    private static func hasBody(_ request: HTTPRequest) -> Bool {
        guard [.post, .put, .patch].contains(request.method) else { return true }
        if request.headerFields[.transferEncoding] != nil { return true }
        return request.headerFields[.contentLength].flatMap { Int($0) }.map { $0 > 0 } ?? false
    }

    /// Errors the generated code raises while reading a request: all the client's doing. The
    /// runtime's own errors are told apart by the status they map to, never by their wording.
    private static func apiError(forRequestError error: any Error, hadBody: Bool) -> APIError {
        switch error {
        case let error as APIError:
            return error
        case let error as HTTPError:
            return apiError(for: error)
        case let error as InvalidDate:
            return APIError(.badRequest, "invalid_json",
                            "A date is not valid: send ISO 8601 with a time zone, as 2026-12-01T14:00:00Z (got '\(error.text)').")
        case let error as DecodingError:
            if let parameter = parameterProblem(error) { return parameter }
            return APIError(.badRequest, "invalid_json", describe(error), field: field(of: error))
        case let error as any HTTPResponseConvertible where error.httpStatus == .unsupportedMediaType:
            return APIError(.unsupportedMediaType, "unsupported_media_type", "Send the body as application/json.")
        case let error as any HTTPResponseConvertible where error.httpStatus == .notAcceptable:
            return APIError(.notAcceptable, "not_acceptable", "This operation answers in JSON: accept application/json.")
        default:
            if !hadBody { return APIError(.badRequest, "missing_body", "This request needs a JSON body.") }
            // The runtime's own words name Swift types: they stay in the log (see `handle`).
            return APIError(.badRequest, "invalid_request",
                            "The request is not valid: check its parameters and body against the API's description at /api/openapi.yaml.")
        }
    }

    /// A path or query parameter the generated code could not read. JSON bodies fail with a
    /// coding path or as a whole object; a parameter fails as one bare value at the root.
    private static func parameterProblem(_ error: DecodingError) -> APIError? {
        let type: Any.Type
        switch error {
        case .typeMismatch(let t, let c) where c.codingPath.isEmpty: type = t
        case .valueNotFound(let t, let c) where c.codingPath.isEmpty: type = t
        default: return nil
        }
        let name = typeName(type)
        guard name != "an object", name != "an array" else { return nil }
        return APIError(.badRequest, "invalid_request",
                        "A path or query parameter is missing or not valid: expected \(name) (ids are whole numbers).")
    }

    private static func field(of error: DecodingError) -> String? {
        let path: [any CodingKey]
        switch error {
        case .typeMismatch(_, let c), .valueNotFound(_, let c), .dataCorrupted(let c): path = c.codingPath
        case .keyNotFound(let key, let c): path = c.codingPath + [key]
        @unknown default: return nil
        }
        let names = path.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
        return names.isEmpty ? nil : names.joined(separator: ".").replacingOccurrences(of: ".[", with: "[")
    }

    private static func describe(_ error: DecodingError) -> String {
        switch error {
        case .keyNotFound(let key, _): return "The field '\(key.stringValue)' is missing."
        case .typeMismatch(let type, _): return "A field has the wrong type: expected \(typeName(type))."
        case .valueNotFound(let type, _): return "A field is null: expected \(typeName(type))."
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "The body is not valid JSON." : "A field has an invalid value."
        @unknown default: return "The body could not be read."
        }
    }

    /// The JSON kind a Swift type is read from, by what the type is, not by its name.
    static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is any BinaryInteger.Type: "an integer"
        case is any BinaryFloatingPoint.Type: "a number"
        case is Bool.Type: "true or false"
        case is any StringProtocol.Type: "a string"
        case is any DecodedArray.Type: "an array"
        default: "an object"
        }
    }
}

/// Lets `typeName` tell an array of any element from an object.
protocol DecodedArray {}
extension Array: DecodedArray {}
