import Foundation
import HTTPTypes
import Hummingbird
import QuizCore
import QuizStore
import QuizText
import QuizUseCases

/// "Sign in with …": the browser side of `ExternalSignIn`.
///
/// Starting is a plain link (GET): leaving for the provider changes nothing here, and a form POST
/// that redirects to another site would be blocked by the pages' `form-action 'self'`. Login CSRF
/// (someone making your browser finish *their* sign-in) is stopped at the callback: the `state`
/// must equal the copy this browser got in a cookie when it started. Linking a provider to the
/// signed-in account changes the account, so its link carries the CSRF token as well.
struct ExternalSignInPages: Sendable {
    let pages: Pages
    let flow: ExternalSignIn
    let accountPages: AccountPages

    var config: ServerConfig { pages.config }
    static var stateCookie: String { "quizbox_oauth_state" }
    static var signupCookie: String { "quizbox_oauth_signup" }

    func register(anyone: some RouterMethods<PageContext>, signedIn: some RouterMethods<SignedInContext>) {
        anyone.get("/auth/:provider/start") { request, context in
            try await start(context.visit, request: request, name: context.parameters.require("provider"))
        }
        anyone.get("/auth/:provider/callback") { request, context in
            try await finish(context.visit, request: request, name: context.parameters.require("provider"))
        }
        anyone.post("/auth/choose-username", policy: .resendable, in: pages.routes) { request, context in try await chooseUsername(context.visit, context.form, request: request) }
        signedIn.post("/profile/unlink") { _, context in try await unlink(context) }
    }

    struct ChooseUsernamePage: Encodable {
        var providerName: String
        var suggestion: String
        var reason: String?
        var usernameError: String?
        var hint: String
    }

    private func cookie(_ name: String, _ value: String, maxAge: Int) -> String {
        "\(name)=\(value); Path=/auth; Max-Age=\(maxAge); HttpOnly; SameSite=Lax\(config.secureCookies ? "; Secure" : "")"
    }

    private func sessionCookie(_ grant: Sessions.Grant) -> String { accountPages.sessionCookie(grant) }

    func start(_ visit: Visit, request: Request, name: String) async throws -> Response {
        do {
            let provider = try flow.provider(named: name)
            var linkUserId: Int64?
            if request.uri.queryParameters["link"] != nil {
                guard let user = visit.user else {
                    throw Redirect(location: "/login?next=/profile\(visit.sessionExpired ? "&expired=1" : "")")
                }
                // The link changes the account, so it carries the page's CSRF token like a form.
                guard let sent = request.uri.queryParameters["csrf"].map(String.init), let cookie = CSRF.token(in: request),
                      CSRF.matches(sent, cookie) else {
                    return pages.error(visit, heading: visit.t("This link has expired"),
                                       message: visit.t("For your safety, linking only works from your profile page. Open your profile and try again."),
                                       status: .forbidden)
                }
                linkUserId = user.id
            } else if visit.user != nil {
                throw Redirect(location: "/home")
            }
            let next = linkUserId != nil ? "/profile" : Pages.safeNext(request.uri.queryParameters["next"].map(String.init))
            let (url, state) = try await flow.start(provider, linkUserId: linkUserId, next: next, address: ClientAddress.current)
            return PageRenderer.redirect(to: url, cookies: [cookie(Self.stateCookie, state, maxAge: Int(config.oauthPendingLifetime))])
        } catch let failure as ExternalSignIn.Failure {
            return failurePage(visit, failure)
        }
    }

    func finish(_ visit: Visit, request: Request, name: String) async throws -> Response {
        let query = request.uri.queryParameters
        // The state cookie has done its job whatever happens next.
        let clearState = cookie(Self.stateCookie, "", maxAge: 0)
        do {
            let provider = try flow.provider(named: name)
            let outcome = try await flow.finish(
                provider, code: query["code"].map(String.init), state: query["state"].map(String.init),
                providerError: query["error"].map(String.init), browserState: request.cookie(Self.stateCookie),
                signedInUserId: visit.user?.id)
            switch outcome {
            case .signedIn(let grant, let next):
                return PageRenderer.redirect(to: next, cookies: [clearState, sessionCookie(grant)])
            case .linked(let name):
                return PageRenderer.redirect(to: "/profile?linked=\(name)", cookies: [clearState])
            case .chooseUsername(let token, let suggestion, let reason):
                var page = chooseUsernamePage(visit, provider: provider, suggestion: suggestion, notice: reason, error: nil)
                page.headers.append(HTTPField(name: .setCookie, value: clearState))
                page.headers.append(HTTPField(name: .setCookie, value: cookie(Self.signupCookie, token, maxAge: Int(config.oauthPendingLifetime))))
                return page
            }
        } catch {
            var page = failurePage(visit, error)
            page.headers.append(HTTPField(name: .setCookie, value: clearState))
            return page
        }
    }

    func chooseUsernamePage(_ visit: Visit, provider: OAuthProviderConfig, suggestion: String, notice: String?, error: String?) -> Response {
        let t = visit.t
        let model = ChooseUsernamePage(providerName: provider.displayName, suggestion: suggestion, reason: notice.map { t($0) }, usernameError: error.map { t($0) },
                                       hint: t("3 to 32 letters, digits, '_', '.' or '-'."))
        return pages.render("choose-username", model, visit: visit, title: t("Choose a username"),
                            status: error == nil ? .ok : .unprocessableContent)
    }

    func chooseUsername(_ visit: Visit, _ form: WebForm, request: Request) async throws -> Response {
        do {
            let (provider, result) = try await flow.chooseUsername(token: request.cookie(Self.signupCookie), username: form.text("username"))
            switch result {
            case .signedIn(let grant, let next):
                return PageRenderer.redirect(to: next, cookies: [cookie(Self.signupCookie, "", maxAge: 0), sessionCookie(grant)])
            case .again(let suggestion, let error):
                return chooseUsernamePage(visit, provider: provider, suggestion: suggestion, notice: nil, error: error)
            }
        } catch {
            var page = failurePage(visit, error)
            page.headers.append(HTTPField(name: .setCookie, value: cookie(Self.signupCookie, "", maxAge: 0)))
            return page
        }
    }

    func unlink(_ context: SignedInContext) async throws -> Response {
        let t = context.visit.t
        let name = context.form.text("provider")
        let displayName = config.oauthProviders.first { $0.name == name }?.displayName ?? name
        let outcome: AccountPages.Feedback
        do {
            try await flow.unlink(provider: name, userId: context.user.id)
            outcome = .init(text: t("{provider} is no longer linked to your account.", ["provider": displayName]), ok: true)
        } catch ExternalSignIn.Failure.lastSignInMethod {
            outcome = .init(text: t("{provider} is your only way to sign in. Set a password first, then unlink it.", ["provider": displayName]), ok: false)
        } catch ExternalSignIn.Failure.notLinked {
            outcome = .init(text: t("{provider} is not linked to your account.", ["provider": displayName]), ok: false)
        }
        return try await accountPages.profilePage(context.visit, user: context.user, link: outcome)
    }

    /// A clear page for a sign-in that did not work; no session is started.
    func failurePage(_ visit: Visit, _ failure: ExternalSignIn.Failure) -> Response {
        let t = visit.t
        let (status, heading, message): (HTTPResponse.Status, String, String) = switch failure {
        case .unknownProvider:
            (.notFound, t("No such sign-in provider"), t("This Quizbox does not offer that way to sign in."))
        case .unreachable(let provider, let reason):
            (.badGateway, t("{provider} could not be reached", ["provider": provider.prefix(1).uppercased() + provider.dropFirst()]),
             t("Signing in through {provider} did not work: {reason}. Try again in a while, or log in with your password.", ["provider": provider, "reason": t(reason)]))
        case .stateMismatch:
            (.badRequest, t("This sign-in did not start here"), t("The answer from the provider does not belong to a sign-in started in this browser, so it was ignored. Start again from the log-in page."))
        case .expired:
            (.badRequest, t("This sign-in has expired"),
             t("A sign-in must be finished within {minutes} minutes and works only once. Start again from the log-in page.", ["minutes": t.number(Int(config.oauthPendingLifetime / 60))]))
        case .refused(let provider, let reason):
            (.badRequest, t("{provider} did not confirm the sign-in", ["provider": provider]),
             t("{provider} answered: {reason}. Start again from the log-in page.", ["provider": provider, "reason": reason]))
        case .untrusted(let provider, let reason):
            (.badRequest, t("{provider}'s answer could not be trusted", ["provider": provider]),
             t("Quizbox did not sign you in because {reason}. Start again from the log-in page.", ["reason": t(reason)]))
        case .identityTaken(let provider):
            (.conflict, t("That {provider} account is linked to someone else", ["provider": provider]),
             t("It is already linked to another Quizbox account. Sign in with that account, or use another {provider} account.", ["provider": provider]))
        case .linkedElsewhere:
            (.badRequest, t("This link was started by another account"), t("Sign in as the account you want to link and start again from its profile."))
        case .tooManyAttempts:
            (.tooManyRequests, t("Too many sign-ins"), t(LogIn.tooManyMessage))
        case .lastSignInMethod, .notLinked:
            (.conflict, t("That provider cannot be unlinked"), t("Open your profile to see which providers are linked."))
        }
        return pages.error(visit, heading: heading, message: message, status: status)
    }
}
