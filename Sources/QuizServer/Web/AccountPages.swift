import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import QuizCore
import QuizText
import QuizStore
import QuizUseCases

/// The pages of accounts: the welcome page, log-in, registration, log-out, the profile with the
/// password form, and contact. Each form calls one use case and renders what it returns.
struct AccountPages: Sendable {
    let pages: Pages
    let sessions: Sessions
    let register: Register
    let logIn: LogIn
    let changePassword: ChangePassword
    let profile: Profile

    var config: ServerConfig { pages.config }

    func register(anyone: some RouterMethods<PageContext>, signedIn: some RouterMethods<SignedInContext>) {
        anyone.get("/") { _, context in entry(context.visit) }
        anyone.get("/login") { request, context in try loginPage(context.visit, query: request.uri.queryParameters) }
        anyone.post("/login") { _, context in try await logIn(context.visit, context.form) }
        anyone.get("/register") { request, context in
            try registerPage(context.visit, next: Pages.safeNext(request.uri.queryParameters["next"].map(String.init)))
        }
        anyone.post("/register", policy: .resendable, in: pages.routes) { _, context in try await registerUser(context.visit, context.form) }
        anyone.post("/logout") { _, context in try await logOut() }
        anyone.get("/contact") { _, context in contact(context.visit) }
        anyone.post("/language") { _, context in try await chooseLanguage(context.visit, context.form) }
        signedIn.get("/profile") { request, context in
            try await profilePage(context.visit, user: context.user, linkedNotice: request.uri.queryParameters["linked"].map(String.init))
        }
        signedIn.post("/profile/password") { _, context in try await changePassword(context) }
    }

    /// The footer's switcher: remembered in a cookie for this browser, and on the account when
    /// signed in (so it follows the user to other devices); back to the page it was chosen on.
    func chooseLanguage(_ visit: Visit, _ form: WebForm) async throws -> Response {
        let next = Pages.safeNext(form["next"])
        guard let language = form["language"].flatMap(Language.init(rawValue:)) else { return PageRenderer.redirect(to: next) }
        if let user = visit.user { try await profile.setLanguage(language, userId: user.id) }
        let cookie = "\(PageMiddleware.languageCookie)=\(language.rawValue); Path=/; Max-Age=31536000; HttpOnly; SameSite=Lax"
            + (config.secureCookies ? "; Secure" : "")
        return PageRenderer.redirect(to: next, cookies: [cookie])
    }

    // MARK: Models

    struct ProviderButton: Encodable {
        var name: String
        var displayName: String
        var url: String
    }

    struct ProviderButtons: Encodable {
        var hasProviderButtons: Bool
        var providers: [ProviderButton]
    }

    struct EntryPage: Encodable {
        var playURL: String
    }

    struct LoginPage: Encodable {
        var next: String
        /// "Create account", which comes back to `next` too.
        var registerURL: String
        var username: String
        var feedback: String?
        var hasProviderButtons: Bool
        var providers: [ProviderButton]
    }

    struct RegisterField: Encodable {
        var name: String
        var label: String
        var type: String
        var autocomplete: String
        var value: String?
        var error: String?
        var hint: String?
    }

    struct RegisterPage: Encodable {
        /// Where a new account goes first: the page that asked to sign in (a class's join link), else home.
        var next: String
        var fields: [RegisterField]
        var feedback: String?
        var hasProviderButtons: Bool
        var providers: [ProviderButton]
    }

    struct ContactPage: Encodable {
        var contactText: String
        var contactEmail: String
        var contactURL: String?
        var backURL: String
    }

    struct ArticleRead: Encodable {
        var id: Int64
        var title: String
        var source: String
        var readOn: String
    }

    struct LinkedProvider: Encodable {
        var name: String
        var providerUsername: String
        var displayName: String
    }

    struct LinkableProvider: Encodable {
        var name: String
        var displayName: String
        var url: String
    }

    struct ProfilePage: Encodable {
        var profileUsername: String
        /// The person's own page, as others see it.
        var ownPageUrl: String
        var firstName: String
        var lastName: String
        var points: Int64
        var rank: Int64
        var role: String
        var quizzesFinished: Int
        var articlesRead: [ArticleRead]
        var hasArticlesRead: Bool
        var liveGames: [LivePlayed]
        var hasLiveGames: Bool
        var passwordFeedback: String?
        var passwordFeedbackClass: String?
        /// Next to each password field, what is wrong with it.
        var currentPasswordError: String?
        var newPasswordError: String?
        var confirmPasswordError: String?
        var hasPassword: Bool
        var linked: [LinkedProvider]
        var linkable: [LinkableProvider]
        var hasProviders: Bool
        var linkFeedback: String?
        var linkFeedbackClass: String?
    }

    /// A live game the player played, as the profile lists it.
    struct LivePlayed: Encodable {
        var title: String
        var playedOn: String
        var rank: Int
        var score: String
        var players: Int
    }

    /// A message on the profile page, good or bad news.
    struct Feedback {
        var text: String
        var ok: Bool
    }

    // MARK: Pages

    func entry(_ visit: Visit) -> Response {
        pages.render("entry", EntryPage(playURL: visit.user == nil ? "/login?next=/home" : "/home"), visit: visit, title: visit.t("Welcome"))
    }

    /// The sign-in provider buttons; `next` rides along unless it is the default.
    func providerButtons(next: String) -> ProviderButtons {
        ProviderButtons(hasProviderButtons: !config.oauthProviders.isEmpty, providers: config.oauthProviders.map { provider in
            ProviderButton(name: provider.name, displayName: provider.displayName,
                           url: "/auth/\(provider.name)/start" + (next == "/home" ? "" : "?next=\(Pages.encode(next))"))
        })
    }

    func loginPage(_ visit: Visit, query: FlatDictionary<Substring, Substring>, feedback: String? = nil, username: String = "",
                   next: String? = nil, status: HTTPResponse.Status? = nil) throws -> Response {
        let t = visit.t
        let after = Pages.safeNext(next ?? query["next"].map(String.init))
        if visit.user != nil { throw Redirect(location: after) }
        let notice: String? = if feedback != nil {
            nil
        } else if query["expired"] != nil || visit.sessionExpired {
            t("Your session has expired. Log in again to carry on.")
        } else if query["loggedout"] != nil {
            t("You have logged out.")
        } else {
            nil
        }
        let buttons = providerButtons(next: after)
        let model = LoginPage(next: after, registerURL: after == "/home" ? "/register" : "/register?next=\(Pages.encode(after))",
                              username: username, feedback: feedback,
                              hasProviderButtons: buttons.hasProviderButtons, providers: buttons.providers)
        return pages.render("login", model, visit: visit, title: t("Log in"), notice: notice,
                            status: status ?? (feedback == nil ? .ok : .unauthorized))
    }

    func logIn(_ visit: Visit, _ form: WebForm) async throws -> Response {
        let t = visit.t
        let username = form.text("username")
        let next = Pages.safeNext(form["next"])
        do {
            let session = try await logIn(username: username, password: form["password"] ?? "", address: ClientAddress.current)
            return PageRenderer.redirect(to: next, cookies: [sessionCookie(session)])
        } catch let failure as LogIn.Failure {
            let feedback = switch failure {
            case .missingFields: t("Enter your username and password.")
            case .refused: t("Wrong username or password.")
            case .tooManyAttempts: t(LogIn.tooManyMessage)
            }
            var page = try loginPage(visit, query: [:], feedback: feedback, username: String(username.prefix(64)), next: next,
                                     status: failure == .tooManyAttempts ? .tooManyRequests : nil)
            if failure == .tooManyAttempts { page.headers[.retryAfter] = String(LogIn.retryAfter) }
            return page
        }
    }

    func sessionCookie(_ session: Sessions.Grant) -> String {
        SessionTokens.cookie(session.token, maxAge: Int(sessions.lifetime), secure: config.secureCookies)
    }

    static func registrationFields(_ t: Texts) -> [(name: String, label: String, type: String, autocomplete: String)] {
        [("first_name", t("First name"), "text", "given-name"), ("last_name", t("Last name"), "text", "family-name"),
         ("username", t("Username"), "text", "username"), ("password", t("Password"), "password", "new-password"),
         ("password_confirm", t("Repeat the password"), "password", "new-password")]
    }

    func registerPage(_ visit: Visit, next: String = "/home", values: [String: String] = [:], errors: [String: String] = [:],
                      status: HTTPResponse.Status? = nil) throws -> Response {
        if visit.user != nil { throw Redirect(location: next) }
        let t = visit.t
        let fields = Self.registrationFields(t).map { field in
            RegisterField(
                name: field.name, label: field.label, type: field.type, autocomplete: field.autocomplete,
                value: field.type == "password" ? nil : values[field.name] ?? "", error: errors[field.name],
                hint: field.name == "username" ? t("3 to 32 letters, digits, '_', '.' or '-'.")
                    : field.name == "password" ? t("At least {count} characters.", ["count": t.number(max(1, config.minimumPasswordLength))]) : nil)
        }
        let buttons = providerButtons(next: next)
        let model = RegisterPage(next: next, fields: fields, feedback: errors.isEmpty ? nil : t("Please fix the marked fields."),
                                 hasProviderButtons: buttons.hasProviderButtons, providers: buttons.providers)
        return pages.render("register", model, visit: visit, title: t("Create account"),
                            status: status ?? (errors.isEmpty ? .ok : .unprocessableContent))
    }

    func registerUser(_ visit: Visit, _ form: WebForm) async throws -> Response {
        let t = visit.t
        let values = ["first_name": form.text("first_name"), "last_name": form.text("last_name"), "username": form.text("username")]
        let password = form["password"] ?? ""
        let next = Pages.safeNext(form["next"])
        // Typing the password twice is the form's own check (the API takes it once), shown with
        // whatever else is wrong: every mistake at once, each next to its field.
        let mismatch = password != (form["password_confirm"] ?? "") ? ["password_confirm": t("The two passwords differ.")] : [:]
        let registration = Registration(username: values["username"]!, firstName: values["first_name"]!,
                                        lastName: values["last_name"]!, password: password)
        if !mismatch.isEmpty {
            let problems = registration.problems(minimumPasswordLength: config.minimumPasswordLength)
            return try registerPage(visit, next: next, values: values, errors: Self.fieldErrors(problems, t: t).merging(mismatch) { kept, _ in kept })
        }
        do {
            let user = try await register(registration, address: ClientAddress.current)
            return PageRenderer.redirect(to: next, cookies: [sessionCookie(try await sessions.start(for: user))])
        } catch let failure as Register.Failure {
            switch failure {
            case .invalid(let problems):
                return try registerPage(visit, next: next, values: values, errors: Self.fieldErrors(problems, t: t))
            case .usernameTaken:
                return try registerPage(visit, next: next, values: values, errors: ["username": t("That username is taken. Try another.")])
            case .tooManyRegistrations:
                var page = try registerPage(visit, next: next, values: values, errors: ["username": t(Register.tooManyMessage)], status: .tooManyRequests)
                page.headers[.retryAfter] = String(Register.retryAfter)
                return page
            }
        }
    }

    /// Each problem under its form field's name.
    static func fieldErrors(_ problems: [Registration.Invalid], t: Texts) -> [String: String] {
        Dictionary(problems.map { (["firstName": "first_name", "lastName": "last_name"][$0.field] ?? $0.field, t($0.message)) }) { first, _ in first }
    }

    func logOut() async throws -> Response {
        if let credential = RequestCredential.current, credential.fromCookie { try await sessions.end(token: credential.token) }
        return PageRenderer.redirect(to: "/login?loggedout=1", cookies: [SessionTokens.clearingCookie(secure: config.secureCookies)])
    }

    func contact(_ visit: Visit) -> Response {
        let model = ContactPage(contactText: config.contactText, contactEmail: config.contactEmail,
                                contactURL: config.contactURL.isEmpty ? nil : config.contactURL, backURL: visit.user == nil ? "/" : "/home")
        return pages.render("contact", model, visit: visit, title: visit.t("Contact"))
    }

    /// The profile, with the outcome of a password change or of linking a provider when there was one.
    func profilePage(_ visit: Visit, user: User, password: Feedback? = nil, passwordProblems: ChangePassword.Problems? = nil, link: Feedback? = nil,
                     linkedNotice: String? = nil, status: HTTPResponse.Status? = nil) async throws -> Response {
        let overview: Profile.Overview
        do {
            overview = try await profile.overview(userId: user.id)
        } catch Profile.Failure.accountGone {
            throw Redirect(location: "/login")
        }
        let t = visit.t
        let me = overview.me
        let providers = config.oauthProviders
        var link = link
        // Only a configured provider's name: the address cannot put other words on the page.
        if link == nil, let name = linkedNotice, overview.identities.contains(where: { $0.provider == name }),
           let provider = providers.first(where: { $0.name == name }) {
            link = Feedback(text: t("{provider} is now linked: you can sign in with it.", ["provider": provider.displayName]), ok: true)
        }
        let model = ProfilePage(
            profileUsername: me.user.username, ownPageUrl: "/users/\(Pages.encode(me.user.username))", firstName: me.user.firstName, lastName: me.user.lastName,
            points: me.user.points, rank: me.rank, role: Self.roleName(me.user.role, t), quizzesFinished: me.quizzesFinished,
            articlesRead: overview.articlesRead.map {
                ArticleRead(id: $0.article.id, title: $0.article.title, source: $0.article.sourceName, readOn: t.date($0.readAt))
            },
            hasArticlesRead: !overview.articlesRead.isEmpty,
            liveGames: overview.liveGames.map {
                LivePlayed(title: $0.title, playedOn: t.date($0.createdAt), rank: $0.rank ?? 0,
                           score: t.count($0.score ?? 0, "{count} point", "{count} points"), players: $0.playerCount)
            },
            hasLiveGames: !overview.liveGames.isEmpty,
            passwordFeedback: password?.text, passwordFeedbackClass: password.map { $0.ok ? "right" : "wrong" },
            currentPasswordError: passwordProblems?.current.map { t($0) }, newPasswordError: passwordProblems?.new.map { t($0) },
            confirmPasswordError: passwordProblems?.confirmation.map { t($0) },
            hasPassword: overview.hasPassword,
            linked: overview.identities.map { identity in
                LinkedProvider(name: identity.provider, providerUsername: identity.providerUsername,
                               displayName: providers.first { $0.name == identity.provider }?.displayName ?? identity.provider)
            },
            linkable: providers.filter { provider in !overview.identities.contains { $0.provider == provider.name } }.map {
                LinkableProvider(name: $0.name, displayName: $0.displayName, url: "/auth/\($0.name)/start?link=1&csrf=\(Pages.encode(visit.csrf))")
            },
            hasProviders: !providers.isEmpty || !overview.identities.isEmpty,
            linkFeedback: link?.text, linkFeedbackClass: link.map { $0.ok ? "right" : "wrong" })
        let failed = password.map { !$0.ok } ?? false || link.map { !$0.ok } ?? false
        return pages.render("profile", model, visit: visit, title: t("Profile"), tab: "Profile",
                            status: status ?? (failed ? .unprocessableContent : .ok))
    }

    /// A role as the pages name it.
    static func roleName(_ role: Role, _ t: Texts) -> String {
        switch role {
        case .player: t("player")
        case .author: t("author")
        case .admin: t("admin")
        }
    }

    func changePassword(_ context: SignedInContext) async throws -> Response {
        let t = context.visit.t
        let form = context.form
        let new = form["new_password"] ?? ""
        do {
            let outcome = try await changePassword(
                userId: context.user.id, current: form["old_password"] ?? "", new: new,
                confirmed: new == (form["new_password_confirm"] ?? ""), keepingToken: RequestCredential.current?.token)
            let text = outcome == .set
                ? t("Your password is set: you can now also log in with your username and password. Other devices have been logged out.")
                : t("Your password has been changed. Other devices have been logged out.")
            return try await profilePage(context.visit, user: context.user, password: Feedback(text: text, ok: true))
        } catch ChangePassword.Failure.invalid(let problems) {
            return try await profilePage(context.visit, user: context.user,
                                         password: Feedback(text: t("Please fix the marked fields; the password was not changed."), ok: false),
                                         passwordProblems: problems)
        } catch ChangePassword.Failure.tooManyChanges {
            var page = try await profilePage(context.visit, user: context.user,
                                             password: Feedback(text: t("Too many password changes. Wait a quarter of an hour and try again."), ok: false),
                                             status: .tooManyRequests)
            page.headers[.retryAfter] = String(ChangePassword.retryAfter)
            return page
        }
    }
}
