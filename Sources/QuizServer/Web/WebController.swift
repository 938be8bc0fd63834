import Foundation
import HTTPTypes
import Hummingbird
import Logging
import QuizCore
import QuizStore
import QuizUseCases

/// The browser app's pages not yet moved to a controller of their own.
struct WebController: Sendable {
    let useCases: UseCases
    let pages: Pages
    let accountPages: AccountPages
    let store: Store
    let hasher: PasswordHasher
    let limiter: RateLimiter
    let logger: Logger

    var config: ServerConfig { pages.config }
    var time: any TimeSource { pages.time }
    var renderer: PageRenderer { pages.renderer }

    func base(_ visit: Visit, title: String, tab: String? = nil, notice: String? = nil) -> [String: Any] {
        pages.base(visit, title: title, tab: tab, notice: notice)
    }

    func errorContext(_ visit: Visit, heading: String, message: String) -> [String: Any] {
        pages.errorContext(visit, heading: heading, message: message)
    }

    static func count(_ n: some BinaryInteger, _ noun: String) -> String { Pages.count(n, noun) }
    static func encode(_ path: String) -> String { Pages.encode(path) }
    static func safeNext(_ next: String?) -> String { Pages.safeNext(next) }

    func register(on router: Router<AppRequestContext>) {
        registerArticles(on: router)
        registerSocial(on: router)
    }

    // MARK: - Plumbing

    func visit(_ request: Request) async throws -> Visit {
        try await PageMiddleware.visit(request, sessions: useCases.sessions, secureCookies: config.secureCookies)
    }

    /// A GET page, with the visit's cookies and the play session's.
    func page(_ request: Request, play: Bool = false, _ body: (Visit) async throws -> Response) async throws -> Response {
        var visit = try await visit(request)
        PageMiddleware.markPlaySession(request, play: play, into: &visit, now: time.now())
        var response: Response
        do {
            response = try await body(visit)
        } catch let redirect as Redirect {
            response = PageRenderer.redirect(to: redirect.location)
        }
        for cookie in visit.cookies { response.headers.append(HTTPField(name: .setCookie, value: cookie)) }
        return response
    }

    /// A form POST: the CSRF token must match, or the person gets an explanation and a way to resend.
    func post(
        _ request: Request, _ context: AppRequestContext, _ body: (Visit, WebForm) async throws -> Response
    ) async throws -> Response {
        var request = request
        let bytes = try await request.collectBody(upTo: pages.maxFormBytes(path: request.uri.path))
        guard let form = Pages.readForm(bytes, contentType: request.headers[.contentType]) else {
            return renderer.render("error", errorContext(try await visit(request), heading: "That form could not be read",
                                                         message: "Please go back and try again."), status: .badRequest)
        }
        let visit = try await visit(request)
        guard let sent = form[CSRF.fieldName], let cookie = CSRF.token(in: request), CSRF.matches(sent, cookie) else {
            return pages.csrfFailure(visit, form: form, request: request)
        }
        var response: Response
        do {
            response = try await body(visit, form)
        } catch let redirect as Redirect {
            response = PageRenderer.redirect(to: redirect.location)
        }
        for cookie in visit.cookies { response.headers.append(HTTPField(name: .setCookie, value: cookie)) }
        return response
    }

    /// The signed-in user, or a redirect to the login page that comes back here afterwards.
    func requireUser(_ visit: Visit, returnTo path: String) throws -> User {
        if let user = visit.user { return user }
        let reason = visit.sessionExpired ? "&expired=1" : ""
        throw Redirect(location: "/login?next=\(Self.encode(path))\(reason)")
    }
}
