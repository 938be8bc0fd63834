import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import QuizCore
import QuizStore
import QuizUseCases
import Synchronization

/// The credential a request carried, if any: a bearer token or the session cookie.
struct RequestCredential: Sendable {
    @TaskLocal static var current: RequestCredential?

    let token: String
    let fromCookie: Bool
}

/// The client's address, for per-address limits; set for every request (behind a trusted
/// proxy, the address it forwarded for: `TrustedProxies`).
enum ClientAddress {
    @TaskLocal static var current = "unknown"
}

extension HTTPField.Name {
    static let xForwardedFor = Self("X-Forwarded-For")!
}

/// Cookies a handler wants set on its response. The generated code would percent-encode a
/// `Set-Cookie` header value, so handlers leave them here and the middleware writes them raw.
final class ResponseCookies: Sendable {
    @TaskLocal static var current: ResponseCookies?

    private let values = Mutex<[String]>([])
    private let headerValues = Mutex<[(HTTPField.Name, String)]>([])

    static func set(_ cookie: String) {
        current?.values.withLock { $0.append(cookie) }
    }

    /// Any other header the generated code would percent-encode (Content-Disposition, Content-Type).
    static func setHeader(_ name: HTTPField.Name, _ value: String) {
        current?.headerValues.withLock { $0.append((name, value)) }
    }

    var all: [String] { values.withLock { $0 } }
    var headers: [(HTTPField.Name, String)] { headerValues.withLock { $0 } }
}

/// Reads the credential into a task-local so the generated API handlers can see it, and writes
/// the cookies they set (the API's counterpart of Hummingbird's task-local request context). The
/// session itself is looked up only for operations that need a user (`APIGroup`).
struct CredentialMiddleware<Context: RequestContext>: RouterMiddleware {
    static var cookieName: String { SessionTokens.cookieName }
    var proxies = TrustedProxies.none

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let credential = Self.credential(in: request)
        if credential?.fromCookie == true, !Self.mayWriteWithCookie(request) {
            throw APIError(.forbidden, "cross_site_request",
                           "An API write signed in with the session cookie must send a JSON body (Content-Type: application/json) or come from a Quizbox page. Other clients send a bearer token.")
        }
        let cookies = ResponseCookies()
        let peer = (context as? any RemoteAddressRequestContext)?.remoteAddress?.ipAddress ?? "unknown"
        // Behind no trusted proxy (the default) the header is not even read: this runs on every request.
        let address = proxies.networks.isEmpty ? peer : proxies.client(peer: peer, forwardedFor: request.headers[values: .xForwardedFor])
        var response = try await RequestCredential.$current.withValue(credential) {
            try await ResponseCookies.$current.withValue(cookies) {
                try await ClientAddress.$current.withValue(address) {
                    try await next(request, context)
                }
            }
        }
        for cookie in cookies.all {
            response.headers.append(HTTPField(name: .setCookie, value: cookie))
        }
        for (name, value) in cookies.headers { response.headers[name] = value }
        return response
    }

    /// The token of "Bearer <token>" (any case, surrounding blanks ignored), read as bytes: this
    /// runs on every API request, and Foundation's trimming showed up in profiles.
    static func bearerToken(_ header: String) -> String? {
        var bytes = Substring(header).utf8[...]
        let scheme = "bearer ".utf8
        guard bytes.count > scheme.count,
              zip(bytes.prefix(scheme.count), scheme).allSatisfy({ $0 | 0x20 == $1 | 0x20 }) else { return nil }
        bytes = bytes.dropFirst(scheme.count)
        let blank: (UInt8) -> Bool = { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        while let first = bytes.first, blank(first) { bytes = bytes.dropFirst() }
        while let last = bytes.last, blank(last) { bytes = bytes.dropLast() }
        return String(Substring(bytes))
    }

    /// The session cookie rides along with any request a browser sends, including one a page on
    /// another site makes it send. An API write may use it only when that cannot be the case: a
    /// JSON body (another site cannot send one without CORS, which Quizbox never grants) or a
    /// request the browser says came from our own pages. Pages have their own CSRF tokens.
    static func mayWriteWithCookie(_ request: Request) -> Bool {
        guard request.uri.path.hasPrefix("/api/") else { return true }
        switch request.method {
        case .get, .head, .options: return true
        default: break
        }
        if let type = request.headers[.contentType],
           type.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased() == "application/json" {
            return true
        }
        return RequestOrigin.isSameOrigin(request)
    }

    static func credential(in request: Request) -> RequestCredential? {
        if let header = request.headers[.authorization], let token = bearerToken(header) {
            return RequestCredential(token: token, fromCookie: false)
        }
        if let cookie = request.cookie(cookieName), !cookie.isEmpty {
            return RequestCredential(token: cookie, fromCookie: true)
        }
        return nil
    }
}

/// The session cookie that carries a token to the pages (and to the API from our own pages).
extension SessionTokens {
    static var cookieName: String { "quizbox_session" }

    static func cookie(_ token: String, maxAge: Int, secure: Bool) -> String {
        "\(cookieName)=\(token); Path=/; Max-Age=\(maxAge); HttpOnly; SameSite=Lax\(secure ? "; Secure" : "")"
    }

    static func clearingCookie(secure: Bool) -> String {
        cookie("", maxAge: 0, secure: secure)
    }
}
