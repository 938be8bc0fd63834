import Foundation
import Hummingbird
import QuizCore
import QuizStore

extension WebController {
    func entry(_ visit: Visit) async throws -> Response {
        var context = base(visit, title: "Welcome")
        context["playURL"] = visit.user == nil ? "/login?next=/home" : "/home"
        return renderer.render("entry", context)
    }

    func loginPage(_ visit: Visit, request: Request, feedback: String? = nil, username: String = "", next: String? = nil) async throws -> Response {
        if visit.user != nil { throw Redirect(location: Self.safeNext(next ?? request.uri.queryParameters["next"].map(String.init))) }
        let notice: String? = if feedback != nil {
            nil
        } else if request.uri.queryParameters["expired"] != nil || visit.sessionExpired {
            "Your session has expired. Log in again to carry on."
        } else if request.uri.queryParameters["loggedout"] != nil {
            "You have logged out."
        } else {
            nil
        }
        var context = base(visit, title: "Log in", notice: notice)
        let after = Self.safeNext(next ?? request.uri.queryParameters["next"].map(String.init))
        context["next"] = after
        context["username"] = username
        providerButtons(next: after, into: &context)
        if let feedback { context["feedback"] = feedback }
        return renderer.render("login", context, status: feedback == nil ? .ok : .unauthorized)
    }

    func logIn(_ visit: Visit, _ form: WebForm, request: Request, context: AppRequestContext) async throws -> Response {
        let username = form.text("username")
        let next = Self.safeNext(form["next"])
        let logIn = LogIn(store: store, hasher: hasher, limiter: limiter, time: time, sessionLifetime: config.sessionLifetime,
                          perAddressPerMinute: config.loginAttemptsPerAddressPerMinute)
        do {
            let session = try await logIn(username: username, password: form["password"] ?? "", address: ClientAddress.current)
            let cookie = SessionTokens.cookie(session.token, maxAge: Int(config.sessionLifetime), secure: config.secureCookies)
            return PageRenderer.redirect(to: next, cookies: [cookie])
        } catch let failure as LogIn<Store>.Failure {
            let feedback = switch failure {
            case .missingFields: "Enter your username and password."
            case .refused: "Wrong username or password."
            case .tooManyAttempts: LoginRateLimiter.message
            }
            var page = try await loginPage(visit, request: request, feedback: feedback, username: String(username.prefix(64)), next: next)
            if failure == .tooManyAttempts {
                page.status = .tooManyRequests
                page.headers[.retryAfter] = "60"
            }
            return page
        }
    }

    /// A new session, as the API's log-in makes; returns its cookie.
    func startSession(for user: User) async throws -> String {
        let token = SessionTokens.make()
        let now = time.now()
        try await store.createSession(tokenHash: SessionTokens.hash(token), userId: user.id, createdAt: now,
                                      expiresAt: now.addingTimeInterval(config.sessionLifetime))
        return SessionTokens.cookie(token, maxAge: Int(config.sessionLifetime), secure: config.secureCookies)
    }

    static var registrationFields: [(name: String, label: String, type: String, autocomplete: String)] {
        [("first_name", "First name", "text", "given-name"), ("last_name", "Last name", "text", "family-name"),
         ("username", "Username", "text", "username"), ("password", "Password", "password", "new-password"),
         ("password_confirm", "Repeat the password", "password", "new-password")]
    }

    func registerPage(_ visit: Visit, values: [String: String] = [:], errors: [String: String] = [:]) async throws -> Response {
        if visit.user != nil { throw Redirect(location: "/home") }
        var context = base(visit, title: "Create account")
        context["fields"] = Self.registrationFields.map { field -> [String: Any] in
            var entry: [String: Any] = ["name": field.name, "label": field.label, "type": field.type, "autocomplete": field.autocomplete]
            if field.type != "password" { entry["value"] = values[field.name] ?? "" }
            if let error = errors[field.name] { entry["error"] = error }
            if field.name == "username" { entry["hint"] = "3 to 32 letters, digits, '_', '.' or '-'." }
            if field.name == "password" { entry["hint"] = "At least \(max(1, config.minimumPasswordLength)) characters." }
            return entry
        }
        if !errors.isEmpty { context["feedback"] = "Please fix the marked fields." }
        providerButtons(next: "/home", into: &context)
        return renderer.render("register", context, status: errors.isEmpty ? .ok : .unprocessableContent)
    }

    func registerUser(_ visit: Visit, _ form: WebForm) async throws -> Response {
        let values = ["first_name": form.text("first_name"), "last_name": form.text("last_name"), "username": form.text("username")]
        let password = form["password"] ?? ""
        if password != (form["password_confirm"] ?? "") {
            return try await registerPage(visit, values: values, errors: ["password_confirm": "The two passwords differ."])
        }
        let registration = Registration(username: values["username"]!, firstName: values["first_name"]!,
                                        lastName: values["last_name"]!, password: password)
        do {
            let user = try await accounts.register(registration, address: ClientAddress.current, limiter: limiter,
                                                   limit: config.registrationsPerAddressPerHour)
            let cookie = try await startSession(for: user)
            return PageRenderer.redirect(to: "/home", cookies: [cookie])
        } catch let error as Registration.Invalid {
            let field = ["firstName": "first_name", "lastName": "last_name"][error.field] ?? error.field
            return try await registerPage(visit, values: values, errors: [field: error.message])
        } catch StoreError.usernameTaken {
            return try await registerPage(visit, values: values, errors: ["username": "That username is taken. Try another."])
        } catch is Accounts<Store>.TooManyRegistrations {
            var page = try await registerPage(visit, values: values, errors: ["username": Accounts<Store>.tooManyMessage])
            page.status = .tooManyRequests
            page.headers[.retryAfter] = "600"
            return page
        }
    }

    func logOut(_ visit: Visit) async throws -> Response {
        if let credential = RequestCredential.current, credential.fromCookie {
            try await store.deleteSession(tokenHash: SessionTokens.hash(credential.token))
        }
        return PageRenderer.redirect(to: "/login?loggedout=1", cookies: [SessionTokens.clearingCookie(secure: config.secureCookies)])
    }

    func profile(_ visit: Visit, feedback: (text: String, ok: Bool)?, linkFeedback: (text: String, ok: Bool)? = nil,
                 request: Request? = nil) async throws -> Response {
        let signedIn = try requireUser(visit, returnTo: "/profile")
        guard let user = try await store.user(id: signedIn.id) else { throw Redirect(location: "/login") }
        var context = base(visit, title: "Profile", tab: "Profile")
        context["profileUsername"] = user.username
        context["firstName"] = user.firstName
        context["lastName"] = user.lastName
        context["points"] = user.points
        context["rank"] = try await store.rank(points: user.points)
        context["role"] = user.role.rawValue
        context["quizzesFinished"] = try await store.quizzesFinished(userId: user.id)
        let read = try await store.articlesRead(userId: user.id, limit: 50)
        context["articlesRead"] = read.map { ["id": $0.article.id, "title": $0.article.title, "source": $0.article.sourceName,
                                              "readOn": Self.displayDate($0.readAt)] }
        context["hasArticlesRead"] = !read.isEmpty
        if let feedback {
            context["passwordFeedback"] = feedback.text
            context["passwordFeedbackClass"] = feedback.ok ? "right" : "wrong"
        }
        // A provider-made account has no password until its owner sets one: no old one to ask for.
        context["hasPassword"] = try await store.passwordHash(userId: user.id) != nil
        let linked = try await store.identities(userId: user.id)
        context["linked"] = linked.map { identity -> [String: Any] in
            ["name": identity.provider, "providerUsername": identity.providerUsername,
             "displayName": config.oauthProviders.first { $0.name == identity.provider }?.displayName ?? identity.provider]
        }
        let unlinked = config.oauthProviders.filter { provider in !linked.contains { $0.provider == provider.name } }
        context["linkable"] = unlinked.map { provider -> [String: Any] in
            ["name": provider.name, "displayName": provider.displayName,
             "url": "/auth/\(provider.name)/start?link=1&csrf=\(Self.encode(visit.csrf))"]
        }
        context["hasProviders"] = !config.oauthProviders.isEmpty || !linked.isEmpty
        var linkNotice = linkFeedback
        // Only a configured provider's name: the address cannot put other words on the page.
        if linkNotice == nil, let name = request?.uri.queryParameters["linked"], linked.contains(where: { $0.provider == name }),
           let provider = config.oauthProviders.first(where: { $0.name == name }) {
            linkNotice = ("\(provider.displayName) is now linked: you can sign in with it.", true)
        }
        if let linkNotice {
            context["linkFeedback"] = linkNotice.text
            context["linkFeedbackClass"] = linkNotice.ok ? "right" : "wrong"
        }
        let failed = feedback.map { !$0.ok } ?? false || linkFeedback.map { !$0.ok } ?? false
        return renderer.render("profile", context, status: failed ? .unprocessableContent : .ok)
    }

    func changePassword(_ visit: Visit, _ form: WebForm, request: Request) async throws -> Response {
        let user = try requireUser(visit, returnTo: "/profile")
        let old = form["old_password"] ?? ""
        let new = form["new_password"] ?? ""
        // An account without a password (made through a provider) sets its first one without an
        // old one: the person is signed in, which is what the old password would prove.
        guard try await limiter.allow([.init(key: "password-change:\(user.id)", limit: 5, window: 15 * 60)]) else {
            var page = try await profile(visit, feedback: ("Too many password changes. Wait a quarter of an hour and try again.", false))
            page.status = .tooManyRequests
            page.headers[.retryAfter] = "900"
            return page
        }
        let hadPassword = try await store.passwordHash(userId: user.id)
        if let hash = hadPassword {
            guard old.utf8.count <= 1024, try await hasher.verify(old, hash: hash, lane: .changePassword) else {
                return try await profile(visit, feedback: ("Your current password is not right.", false))
            }
        }
        guard new == (form["new_password_confirm"] ?? "") else {
            return try await profile(visit, feedback: ("The two new passwords differ.", false))
        }
        do {
            try Registration.validatePassword(new, minimumLength: config.minimumPasswordLength)
        } catch {
            return try await profile(visit, feedback: (error.message, false))
        }
        try await store.setPasswordHash(try await hasher.hash(new, lane: .changePassword), userId: user.id)
        // Other devices must log in again with the new password; this one stays signed in.
        if let credential = RequestCredential.current {
            try await store.deleteSessions(userId: user.id, keeping: SessionTokens.hash(credential.token))
        }
        return try await profile(visit, feedback: (hadPassword == nil
            ? "Your password is set: you can now also log in with your username and password. Other devices have been logged out."
            : "Your password has been changed. Other devices have been logged out.", true))
    }

    func contact(_ visit: Visit, request: Request) async throws -> Response {
        var context = base(visit, title: "Contact")
        context["contactText"] = config.contactText
        context["contactEmail"] = config.contactEmail
        if !config.contactURL.isEmpty { context["contactURL"] = config.contactURL }
        context["backURL"] = visit.user == nil ? "/" : "/home"
        return renderer.render("contact", context)
    }
}
