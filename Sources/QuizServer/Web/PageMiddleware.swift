import Foundation
import HTTPTypes
import Hummingbird
import QuizCore
import QuizText
import QuizUseCases

/// Runs before every page: works out the `Visit` (who is signed in, the CSRF token), reads and
/// checks a POST's form, turns `Redirect` and `PageRefusal` into responses, and writes the visit's
/// cookies. Handlers get the visit (and for signed-in groups the user) from their context.
struct PageMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    let sessions: Sessions
    let pages: Pages
    /// Play pages (a quiz, its questions, history) keep the play session's start in a cookie; any
    /// other page ends the play session.
    var play = false

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        var request = request
        var visit = try await Self.visit(request, sessions: sessions, secureCookies: pages.config.secureCookies)
        if request.method == .post {
            let bytes = try await request.collectBody(upTo: pages.maxFormBytes(request.method, endpoint: context.endpointPath))
            guard let form = Pages.readForm(bytes, contentType: request.headers[.contentType]) else {
                return pages.render("error", pages.errorContext(visit, heading: visit.t("That form could not be read"),
                                                                message: visit.t("Please go back and try again.")),
                                    status: .badRequest, cookies: visit.cookies)
            }
            guard let sent = form[CSRF.fieldName], let cookie = CSRF.token(in: request), CSRF.matches(sent, cookie) else {
                return pages.csrfFailure(visit, form: form, request: request, endpoint: context.endpointPath)
            }
            visit.form = form
            visit.returnPath = RequestOrigin.sameOriginPath(ofReferer: request) ?? "/home"
        } else {
            visit.returnPath = request.uri.query.map { "\(request.uri.path)?\($0)" } ?? request.uri.path
            if request.method == .get { Self.markPlaySession(request, play: play, into: &visit, now: pages.time.now()) }
        }
        context.visit = visit
        var response: Response
        do {
            response = try await next(request, context)
        } catch let redirect as Redirect {
            response = PageRenderer.redirect(to: redirect.location)
        } catch let refusal as PageRefusal {
            response = pages.refusal(refusal, visit: visit)
        }
        for cookie in visit.cookies { response.headers.append(HTTPField(name: .setCookie, value: cookie)) }
        return response
    }

    /// Who is visiting. A session that is unknown or expired is cleared; a database that cannot be
    /// asked is an error of its own (503), not a reason to log the person out.
    static func visit(_ request: Request, sessions: Sessions, secureCookies: Bool) async throws -> Visit {
        let token = CSRF.token(in: request)
        var visit = Visit(csrf: token ?? SessionTokens.make())
        if token == nil { visit.cookies.append(CSRF.cookie(visit.csrf, secure: secureCookies)) }
        visit.language = Self.language(request)
        guard let credential = RequestCredential.current, credential.fromCookie else { return visit }
        do {
            visit.user = try await sessions.user(token: credential.token)
            if let chosen = visit.user?.language.flatMap(Language.init(rawValue:)) { visit.language = chosen }
        } catch let failure as Sessions.Failure {
            visit.sessionExpired = failure == .expired
            visit.cookies.append(SessionTokens.clearingCookie(secure: secureCookies))
        }
        return visit
    }

    static var languageCookie: String { "quizbox_lang" }

    /// The language a request asks for without an account: the switcher's cookie, else the browser's.
    static func language(_ request: Request) -> Language {
        language(cookie: request.cookie(languageCookie), acceptLanguage: request.headers[.acceptLanguage])
    }

    static func language(cookie: String?, acceptLanguage: String?) -> Language {
        if let cookie, let language = Language(rawValue: cookie) { return language }
        return Language.preferred(acceptLanguage: acceptLanguage) ?? .en
    }

    static var playCookie: String { "quizbox_play" }

    static func markPlaySession(_ request: Request, play: Bool, into visit: inout Visit, now: Date) {
        let playing = request.cookie(playCookie) != nil
        if play && !playing {
            visit.cookies.append("\(playCookie)=\(now.timeIntervalSince1970); Path=/; HttpOnly; SameSite=Lax")
        } else if !play && playing {
            visit.cookies.append("\(playCookie)=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax")
        }
    }
}
