import Foundation
import HTTPTypes
import Hummingbird
import QuizCore
import QuizStore
import QuizUseCases

/// "Sign in with …": the browser side of `ExternalSignIn`.
///
/// Starting is a plain link (GET): leaving for the provider changes nothing here, and a form POST
/// that redirects to another site would be blocked by the pages' `form-action 'self'`. Login CSRF
/// (someone making your browser finish *their* sign-in) is stopped at the callback: the `state`
/// must equal the copy this browser got in a cookie when it started. Linking a provider to the
/// signed-in account changes the account, so its link carries the CSRF token as well.
extension WebController {
    static var stateCookie: String { "quizbox_oauth_state" }
    static var signupCookie: String { "quizbox_oauth_signup" }

    var externalSignIn: ExternalSignIn {
        ExternalSignIn(store: store, config: config, time: time, directory: providerDirectory, http: OAuthHTTP())
    }

    func registerExternalSignIn(on router: Router<AppRequestContext>) {
        router.get("/auth/:provider/start") { request, context in
            try await page(request) { try await startExternal($0, request: request, name: context.parameters.require("provider")) }
        }
        router.get("/auth/:provider/callback") { request, context in
            try await page(request) { try await finishExternal($0, request: request, name: context.parameters.require("provider")) }
        }
        router.post("/auth/choose-username") { request, context in
            try await post(request, context) { try await chooseUsername($0, $1, request: request) }
        }
        router.post("/profile/unlink") { request, context in try await post(request, context) { try await unlink($0, $1) } }
    }

    /// The buttons on the log-in and create-account pages.
    private func cookie(_ name: String, _ value: String, maxAge: Int) -> String {
        "\(name)=\(value); Path=/auth; Max-Age=\(maxAge); HttpOnly; SameSite=Lax\(config.secureCookies ? "; Secure" : "")"
    }

    func startExternal(_ visit: Visit, request: Request, name: String) async throws -> Response {
        let flow = externalSignIn
        do {
            let provider = try flow.provider(named: name)
            let linking = request.uri.queryParameters["link"] != nil
            var linkUserId: Int64?
            if linking {
                let user = try requireUser(visit, returnTo: "/profile")
                guard let sent = request.uri.queryParameters["csrf"].map(String.init), let cookie = CSRF.token(in: request),
                      CSRF.matches(sent, cookie) else {
                    return renderer.render("error", errorContext(visit, heading: "This link has expired",
                        message: "For your safety, linking only works from your profile page. Open your profile and try again."),
                        status: .forbidden)
                }
                linkUserId = user.id
            } else if visit.user != nil {
                throw Redirect(location: "/home")
            }
            // Each start stores a pending sign-in for ten minutes: as many per client address as log-ins.
            guard try await limiter.allow(keys: ["signin-ip:" + ClientAddress.current]) else {
                return renderer.render("error", errorContext(visit, heading: "Too many sign-ins", message: LogIn.tooManyMessage),
                                       status: .tooManyRequests)
            }
            let next = linking ? "/profile" : Self.safeNext(request.uri.queryParameters["next"].map(String.init))
            let (url, state) = try await flow.start(provider, linkUserId: linkUserId, next: next)
            return PageRenderer.redirect(to: url, cookies: [cookie(Self.stateCookie, state, maxAge: Int(config.oauthPendingLifetime))])
        } catch let failure as ExternalSignIn.Failure {
            return externalFailure(visit, failure)
        }
    }

    func finishExternal(_ visit: Visit, request: Request, name: String) async throws -> Response {
        let flow = externalSignIn
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
            case .signedIn(let userId, let next):
                guard let user = try await store.user(id: userId) else { throw ExternalSignIn.Failure.expired }
                let session = accountPages.sessionCookie(try await useCases.sessions.start(for: user))
                return PageRenderer.redirect(to: next, cookies: [clearState, session])
            case .linked(let name):
                return PageRenderer.redirect(to: "/profile?linked=\(name)", cookies: [clearState])
            case .chooseUsername(let token, let suggestion, let reason):
                var page = chooseUsernamePage(visit, provider: provider, suggestion: suggestion, notice: reason, error: nil)
                page.headers.append(HTTPField(name: .setCookie, value: clearState))
                page.headers.append(HTTPField(name: .setCookie, value: cookie(Self.signupCookie, token, maxAge: Int(config.oauthPendingLifetime))))
                return page
            }
        } catch let failure as ExternalSignIn.Failure {
            var page = externalFailure(visit, failure)
            page.headers.append(HTTPField(name: .setCookie, value: clearState))
            return page
        }
    }

    func chooseUsernamePage(_ visit: Visit, provider: OAuthProviderConfig, suggestion: String, notice: String?, error: String?) -> Response {
        var context = base(visit, title: "Choose a username")
        context["providerName"] = provider.displayName
        context["suggestion"] = suggestion
        if let notice { context["reason"] = notice }
        if let error { context["usernameError"] = error }
        context["hint"] = "3 to 32 letters, digits, '_', '.' or '-'."
        return renderer.render("choose-username", context, status: error == nil ? .ok : .unprocessableContent)
    }

    func chooseUsername(_ visit: Visit, _ form: WebForm, request: Request) async throws -> Response {
        let username = form.text("username")
        do {
            let (provider, result) = try await externalSignIn.chooseUsername(token: request.cookie(Self.signupCookie), username: username)
            switch result {
            case .signedIn(let userId, let next):
                guard let user = try await store.user(id: userId) else { throw ExternalSignIn.Failure.expired }
                let session = accountPages.sessionCookie(try await useCases.sessions.start(for: user))
                return PageRenderer.redirect(to: next, cookies: [cookie(Self.signupCookie, "", maxAge: 0), session])
            case .again(let suggestion, let error):
                return chooseUsernamePage(visit, provider: provider, suggestion: suggestion, notice: nil, error: error)
            }
        } catch let failure as ExternalSignIn.Failure {
            var page = externalFailure(visit, failure)
            page.headers.append(HTTPField(name: .setCookie, value: cookie(Self.signupCookie, "", maxAge: 0)))
            return page
        }
    }

    func unlink(_ visit: Visit, _ form: WebForm) async throws -> Response {
        let user = try requireUser(visit, returnTo: "/profile")
        let name = form.text("provider")
        let displayName = config.oauthProviders.first { $0.name == name }?.displayName ?? name
        do {
            try await store.unlink(provider: name, userId: user.id)
            return try await accountPages.profilePage(visit, user: user, link: .init(text: "\(displayName) is no longer linked to your account.", ok: true))
        } catch StoreError.lastSignInMethod {
            return try await accountPages.profilePage(visit, user: user, link: .init(text: "\(displayName) is your only way to sign in. Set a password first, then unlink it.", ok: false))
        } catch StoreError.notFound {
            return try await accountPages.profilePage(visit, user: user, link: .init(text: "\(displayName) is not linked to your account.", ok: false))
        }
    }

    /// A clear page for a sign-in that did not work; no session is started.
    func externalFailure(_ visit: Visit, _ failure: ExternalSignIn.Failure) -> Response {
        let (status, heading, message): (HTTPResponse.Status, String, String) = switch failure {
        case .unknownProvider:
            (.notFound, "No such sign-in provider", "This Quizbox does not offer that way to sign in.")
        case .unreachable(let provider, let reason):
            (.badGateway, "\(provider.prefix(1).uppercased() + provider.dropFirst()) could not be reached", "Signing in through \(provider) did not work: \(reason). Try again in a while, or log in with your password.")
        case .stateMismatch:
            (.badRequest, "This sign-in did not start here", "The answer from the provider does not belong to a sign-in started in this browser, so it was ignored. Start again from the log-in page.")
        case .expired:
            (.badRequest, "This sign-in has expired", "A sign-in must be finished within \(Int(config.oauthPendingLifetime / 60)) minutes and works only once. Start again from the log-in page.")
        case .refused(let provider, let reason):
            (.badRequest, "\(provider) did not confirm the sign-in", "\(provider) answered: \(reason). Start again from the log-in page.")
        case .untrusted(let provider, let reason):
            (.badRequest, "\(provider)'s answer could not be trusted", "Quizbox did not sign you in because \(reason). Start again from the log-in page.")
        case .identityTaken(let provider):
            (.conflict, "That \(provider) account is linked to someone else", "It is already linked to another Quizbox account. Sign in with that account, or use another \(provider) account.")
        case .linkedElsewhere:
            (.badRequest, "This link was started by another account", "Sign in as the account you want to link and start again from its profile.")
        }
        return renderer.render("error", errorContext(visit, heading: heading, message: message), status: status)
    }
}
