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
    let games: GameTable
    let guessLimiter: RateLimiter
    let logger: Logger
    /// Sign-in providers' discovery documents and keys, shared by every request.
    let providerDirectory: ProviderDirectory

    var config: ServerConfig { pages.config }
    var time: any TimeSource { pages.time }
    var renderer: PageRenderer { pages.renderer }

    var playing: Playing { Playing(store: store, time: time, games: games, guessLimiter: guessLimiter) }

    static var playCookie: String { PageMiddleware.playCookie }

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
        router.get("/home") { request, _ in try await page(request) { try await home($0) } }
        router.get("/subjects/:id") { request, context in try await page(request) { try await subject($0, id: context.parameters.require("id", as: Int64.self)) } }
        router.get("/quizzes") { request, _ in try await page(request) { try await quizzes($0) } }
        router.get("/quizzes/:id") { request, context in
            try await page(request, play: true) { try await quiz($0, id: context.parameters.require("id", as: Int64.self)) }
        }
        router.post("/quizzes/:id/start") { request, context in
            try await post(request, context) { visit, _ in try await startQuiz(visit, id: context.parameters.require("id", as: Int64.self)) }
        }
        router.get("/play/:attempt") { request, context in
            try await page(request, play: true) { try await attemptPage($0, id: context.parameters.require("attempt", as: Int64.self)) }
        }
        router.get("/play/:attempt/questions/:question") { request, context in
            try await page(request, play: true) {
                try await questionPage($0, attemptId: context.parameters.require("attempt", as: Int64.self),
                                       questionId: context.parameters.require("question", as: Int64.self),
                                       already: request.uri.queryParameters["already"] != nil)
            }
        }
        router.post("/play/:attempt/questions/:question") { request, context in
            try await post(request, context) {
                try await answer($0, $1, attemptId: context.parameters.require("attempt", as: Int64.self),
                                 questionId: context.parameters.require("question", as: Int64.self))
            }
        }
        router.post("/play/:attempt/finish") { request, context in
            try await post(request, context) { visit, _ in try await finish(visit, attemptId: context.parameters.require("attempt", as: Int64.self)) }
        }
        router.get("/play/:attempt/result") { request, context in
            try await page(request, play: true) { try await result($0, attemptId: context.parameters.require("attempt", as: Int64.self)) }
        }
        router.get("/history") { request, _ in try await page(request, play: true) { try await history($0, request: request) } }
        router.get("/leaderboard") { request, _ in try await page(request) { try await leaderboard($0) } }
        registerModes(on: router)
        registerExternalSignIn(on: router)
        router.get("/manage") { request, _ in try await page(request) { try await manage($0, feedback: nil) } }
        router.post("/manage/import") { request, context in try await post(request, context) { try await importBank($0, $1) } }
        router.get("/manage/quizzes/:id/export") { request, context in
            try await page(request) {
                try await exportQuiz($0, id: context.parameters.require("id", as: Int64.self),
                                     format: request.uri.queryParameters["format"].map(String.init))
            }
        }
        registerManage(on: router)
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
