import Foundation
import HTTPTypes
import Hummingbird
import Logging
import QuizCore
import QuizStore

/// The browser app: server-rendered pages, forms that POST then redirect, no script needed.
struct WebController<Store: QuizStore>: Sendable {
    let store: Store
    let config: ServerConfig
    let time: any TimeSource
    let hasher: PasswordHasher
    let renderer: PageRenderer
    let limiter: LoginRateLimiter
    let games: GameTable
    let guessLimiter: LoginRateLimiter
    let logger: Logger
    /// Sign-in providers' discovery documents and keys, shared by every request.
    let providerDirectory: ProviderDirectory

    var playing: Playing<Store> { Playing(store: store, time: time, games: games, guessLimiter: guessLimiter) }

    var accounts: Accounts<Store> {
        Accounts(store: store, hasher: hasher, minimumPasswordLength: config.minimumPasswordLength, time: time)
    }

    /// What a page knows about the person looking at it.
    struct Visit: Sendable {
        var user: User?
        var sessionExpired = false
        var csrf: String
        var cookies: [String] = []
    }

    /// Thrown to end a handler with a redirect (to the login page, most often).
    struct Redirect: Error {
        var location: String
    }

    static var playCookie: String { "quizbox_play" }

    func register(on router: Router<AppRequestContext>) {
        router.get("/") { request, _ in try await page(request) { try await entry($0) } }
        router.get("/login") { request, _ in try await page(request) { try await loginPage($0, request: request) } }
        router.post("/login") { request, context in try await post(request, context) { try await logIn($0, $1, request: request, context: context) } }
        router.get("/register") { request, _ in try await page(request) { try await registerPage($0) } }
        router.post("/register") { request, context in try await post(request, context) { try await registerUser($0, $1) } }
        router.post("/logout") { request, context in try await post(request, context) { visit, _ in try await logOut(visit) } }
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
        router.get("/profile") { request, _ in try await page(request) { try await profile($0, feedback: nil, request: request) } }
        router.post("/profile/password") { request, context in try await post(request, context) { try await changePassword($0, $1, request: request) } }
        router.get("/contact") { request, _ in try await page(request) { try await contact($0, request: request) } }
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
        registerArticles(on: router)
        registerSocial(on: router)
    }

    // MARK: - Plumbing

    /// Who is visiting. A session that is unknown or expired is cleared; a database that cannot be
    /// asked is an error of its own (503), not a reason to log the person out.
    func visit(_ request: Request) async throws -> Visit {
        var visit = Visit(csrf: CSRF.token(in: request) ?? SessionTokens.make())
        if CSRF.token(in: request) == nil { visit.cookies.append(CSRF.cookie(visit.csrf, secure: config.secureCookies)) }
        guard RequestCredential.current?.fromCookie == true else { return visit }
        do {
            visit.user = try await Authenticator(store: store, time: time).requireUser()
        } catch let error as APIError where error == .sessionExpired {
            visit.sessionExpired = true
            visit.cookies.append(SessionTokens.clearingCookie(secure: config.secureCookies))
        } catch is APIError {
            visit.cookies.append(SessionTokens.clearingCookie(secure: config.secureCookies))
        }
        return visit
    }

    /// A GET page. Play pages (a quiz, its questions, history) keep the play session's start in a
    /// cookie; any other page ends the play session.
    func page(_ request: Request, play: Bool = false, _ body: (Visit) async throws -> Response) async throws -> Response {
        var visit = try await visit(request)
        let playing = request.cookie(Self.playCookie) != nil
        if play && !playing {
            visit.cookies.append("\(Self.playCookie)=\(time.now().timeIntervalSince1970); Path=/; HttpOnly; SameSite=Lax")
        } else if !play && playing {
            visit.cookies.append("\(Self.playCookie)=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax")
        }
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
        let bytes = try await request.collectBody(upTo: maxFormBytes(path: request.uri.path))
        guard let form = Self.readForm(bytes, contentType: request.headers[.contentType]) else {
            return renderer.render("error", errorContext(try await visit(request), heading: "That form could not be read",
                                                         message: "Please go back and try again."), status: .badRequest)
        }
        var visit = try await visit(request)
        guard let sent = form[CSRF.fieldName], let cookie = CSRF.token(in: request), CSRF.matches(sent, cookie) else {
            return csrfFailure(visit, form: form, request: request)
        }
        if visit.sessionExpired {
            visit.cookies.append(SessionTokens.clearingCookie(secure: config.secureCookies))
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

    /// Explains a form that failed its token check. Only a request a page of ours sent (the browser
    /// says so) to a form that changes nothing irreversible is offered back, with what was typed
    /// (never passwords), so one click sends it again: otherwise a forged cross-site form would be
    /// one click away from going through with a fresh token.
    func csrfFailure(_ visit: Visit, form: WebForm, request: Request) -> Response {
        let path = request.uri.path
        var context = errorContext(visit, heading: "This form has expired",
                                   message: "For your safety, forms only work on the page they came from and for a while after it opened. Go back, reload the page and send it again.")
        let kept = form.pairs.filter { !$0.name.contains("password") && $0.name != CSRF.fieldName }
        let keptBytes = kept.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count }
        if RequestOrigin.isSameOrigin(request), Self.isResendable(path), keptBytes <= Self.maxResentBytes {
            context["message"] = "For your safety, forms only work on the page they came from and for a while after it opened. What you typed is kept (except passwords): send it again, or go back to the start."
            context["retry"] = true
            context["retryAction"] = path
            context["kept"] = kept.map { ["name": $0.name, "value": $0.value] }
        }
        var cookies = visit.cookies
        if !cookies.contains(where: { $0.hasPrefix(CSRF.cookieName) }) { cookies.append(CSRF.cookie(visit.csrf, secure: config.secureCookies)) }
        return renderer.render("error", context, status: .forbidden, cookies: cookies)
    }

    /// What the "send it again" form may carry: a post's text and a few short fields, not a file.
    static var maxResentBytes: Int { 8 * 1024 }

    /// Forms a player fills in whose resending harms nobody: registering, posting, answering,
    /// starting practice or a game. Never authoring, roles, imports, deletions, follows or sign-outs.
    static func isResendable(_ path: String) -> Bool {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map(String.init)
        let number = { (part: String) in !part.isEmpty && part.allSatisfy(\.isASCII) && Int64(part) != nil }
        switch parts.count {
        case 1: return ["register", "practice", "games"].contains(parts[0])
        case 2: return (parts[0] == "feed" && parts[1] == "posts") || (parts[0] == "auth" && parts[1] == "choose-username")
            || (parts[0] == "questions" && number(parts[1]))
        case 3: return (parts[0] == "games" && number(parts[1]) && parts[2] == "guesses")
            || (parts[0] == "quizzes" && number(parts[1]) && parts[2] == "start")
        case 4: return parts[0] == "play" && number(parts[1]) && parts[2] == "questions" && number(parts[3])
        default: return false
        }
    }

    func base(_ visit: Visit, title: String, tab: String? = nil, notice: String? = nil) -> [String: Any] {
        var context: [String: Any] = ["pageTitle": title, "csrf": visit.csrf, "signedIn": visit.user != nil]
        if let user = visit.user {
            context["username"] = user.username
            // Only authors and admins see the way to the authoring pages.
            context["canAuthor"] = user.role == .author || user.role == .admin
            context["isAdmin"] = user.role == .admin
        }
        if let tab { context["tab" + tab] = true }
        if let notice { context["notice"] = notice }
        context["chrome"] = renderer.chrome(PageChrome(
            title: title, username: visit.user?.username, canAuthor: context["canAuthor"] as? Bool ?? false, tab: tab, notice: notice))
        return context
    }

    func errorContext(_ visit: Visit, heading: String, message: String) -> [String: Any] {
        var context = base(visit, title: heading)
        context["heading"] = heading
        context["message"] = message
        return context
    }

    /// The signed-in user, or a redirect to the login page that comes back here afterwards.
    func requireUser(_ visit: Visit, returnTo path: String) throws -> User {
        if let user = visit.user { return user }
        let reason = visit.sessionExpired ? "&expired=1" : ""
        throw Redirect(location: "/login?next=\(Self.encode(path))\(reason)")
    }

    /// "1 topic", "2 topics".
    static func count(_ n: some BinaryInteger, _ noun: String) -> String {
        n == 1 ? "1 \(noun)" : "\(n) \(noun)s"
    }

    static func encode(_ path: String) -> String {
        path.addingPercentEncoding(withAllowedCharacters: PathCharacters.allowed) ?? "/"
    }

    /// Only same-site paths, so `next` cannot send someone to another site after logging in.
    /// Browsers drop tabs and newlines from a URL and read `\` as `/`, so `/\t/evil.example` and
    /// `/\evil.example` are `//evil.example` to them: refuse every control character, whitespace and
    /// backslash, and `//` at the start even after one more round of percent-decoding.
    static func safeNext(_ next: String?) -> String {
        guard let next, next.utf8.count <= 400, isSamePath(next), isSamePath(next.removingPercentEncoding ?? next),
              let location = next.addingPercentEncoding(withAllowedCharacters: PathCharacters.location)
        else { return "/home" }
        return location
    }

    private static func isSamePath(_ path: String) -> Bool {
        guard path.hasPrefix("/"), !path.hasPrefix("//") else { return false }
        return !path.unicodeScalars.contains { scalar in
            scalar == "\\" || scalar.value < 0x21 || scalar.value == 0x7F || scalar.properties.isWhitespace
                || scalar.properties.generalCategory == .control || scalar.properties.generalCategory == .format
        }
    }
}

/// Built once: the union cost more than the encoding itself (once per post on the feed).
enum PathCharacters {
    static let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "/-_"))
    /// What a redirect's path, query and fragment keep as they are; anything else (a literal `%`,
    /// a letter outside ASCII) is percent-encoded so the Location header stays ASCII.
    static let location = CharacterSet(charactersIn:
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~/?#[]@!$&'()*+,;=:")
}
