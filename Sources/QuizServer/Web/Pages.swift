import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import QuizCore
import QuizText

/// What every page controller shares: the renderer, the settings pages read, the clock, and the
/// page chrome (header, tabs, CSRF token) every page is rendered with.
struct Pages: Sendable {
    let renderer: PageRenderer
    let config: ServerConfig
    let time: any TimeSource
    /// Where page routes declare their policies (`RoutePolicy`) as they are registered.
    var routes = RoutePolicies()

    /// Renders `model` into `template` with the page chrome for `visit`.
    func render(_ template: String, _ model: some Encodable, visit: Visit, title: String, tab: String? = nil,
                notice: String? = nil, status: HTTPResponse.Status = .ok) -> Response {
        var context = base(visit, title: title, tab: tab, notice: notice)
        MustacheEncoder.encode(model, into: &context)
        return renderer.render(template, context, status: status)
    }

    /// Renders a model that writes its own values (see `MustacheFields`).
    func render(_ template: String, _ model: some MustacheFields, visit: Visit, title: String, tab: String? = nil,
                notice: String? = nil, status: HTTPResponse.Status = .ok) -> Response {
        var context = base(visit, title: title, tab: tab, notice: notice)
        model.write(into: &context)
        return renderer.render(template, context, status: status)
    }

    func render(_ template: String, _ context: [String: Any], status: HTTPResponse.Status = .ok, cookies: [String] = []) -> Response {
        renderer.render(template, context, status: status, cookies: cookies)
    }

    struct RefusalPage: Encodable {
        var heading: String
        var message: String
        var role: String?
    }

    /// Explains a refused page on the refusal's template.
    func refusal(_ refusal: PageRefusal, visit: Visit) -> Response {
        let heading = visit.t.ifKnown(refusal.heading)
        return render(refusal.template, RefusalPage(heading: heading, message: visit.t.ifKnown(refusal.message), role: visit.user.map { AccountPages.roleName($0.role, visit.t) }),
                      visit: visit, title: heading, status: refusal.status)
    }

    /// An error page in the app's style.
    func error(_ visit: Visit, heading: String, message: String, status: HTTPResponse.Status) -> Response {
        renderer.render("error", errorContext(visit, heading: heading, message: message), status: status)
    }

    /// Explains a form that failed its token check. Only a request a page of ours sent (the browser
    /// says so) to a form that changes nothing irreversible is offered back, with what was typed
    /// (never passwords), so one click sends it again: otherwise a forged cross-site form would be
    /// one click away from going through with a fresh token.
    func csrfFailure(_ visit: Visit, form: WebForm, request: Request, endpoint: String?) -> Response {
        let path = request.uri.path
        let t = visit.t
        var context = errorContext(visit, heading: t("This form has expired"),
                                   message: t("For your safety, forms only work on the page they came from and for a while after it opened. Go back, reload the page and send it again."))
        let kept = form.pairs.filter { !$0.name.contains("password") && $0.name != CSRF.fieldName }
        let keptBytes = kept.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count }
        if RequestOrigin.isSameOrigin(request), routes.policy(.post, endpoint: endpoint)?.resendable == true, keptBytes <= Self.maxResentBytes {
            context["message"] = t("For your safety, forms only work on the page they came from and for a while after it opened. What you typed is kept (except passwords): send it again, or go back to the start.")
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

    func base(_ visit: Visit, title: String, tab: String? = nil, notice: String? = nil) -> [String: Any] {
        // Room for the chrome and a page's own fields, so filling it never rehashes.
        var context = [String: Any](minimumCapacity: 32)
        context["pageTitle"] = title
        context[PageRenderer.languageKey] = visit.language.rawValue
        context["languageSwitch"] = Self.languageSwitch(visit)
        context["csrf"] = visit.csrf
        context["signedIn"] = visit.user != nil
        if let user = visit.user {
            context["username"] = user.username
            // Only authors and admins see the way to the authoring pages.
            context["canAuthor"] = user.role.canAuthor
            context["isAdmin"] = user.role.canManageUsers
        }
        if let tab { context["tab" + tab] = true }
        if let notice { context["notice"] = notice }
        context["chrome"] = renderer.chrome(PageChrome(
            language: visit.language, title: title, username: visit.user?.username, canAuthor: context["canAuthor"] as? Bool ?? false, tab: tab, notice: notice))
        return context
    }

    /// The footer's switcher: a button per other language, each named in its own language, that
    /// comes back to this page. A form (POST, CSRF token) because it changes the user's setting.
    static func languageSwitch(_ visit: Visit) -> String {
        var html = "<form class=\"langswitch\" method=\"post\" action=\"/language\"><input type=\"hidden\" name=\"\(CSRF.fieldName)\" value=\""
        html.reserveCapacity(300)
        PageSkeleton.appendEscaped(visit.csrf, to: &html)
        html += "\"><input type=\"hidden\" name=\"next\" value=\""
        PageSkeleton.appendEscaped(visit.returnPath, to: &html)
        html += "\">"
        html += languageButtons[visit.language] ?? ""
        return html + "</form>"
    }

    /// A button per other language, for each language a page may be in.
    static let languageButtons: [Language: String] = Dictionary(uniqueKeysWithValues: Language.allCases.map { current in
        (current, Language.allCases.filter { $0 != current }.map { language in
            "<button type=\"submit\" name=\"language\" value=\"\(language.rawValue)\" lang=\"\(language.rawValue)\">\(language.name)</button>"
        }.joined())
    })

    func errorContext(_ visit: Visit, heading: String, message: String) -> [String: Any] {
        var context = base(visit, title: heading)
        context["heading"] = heading
        context["message"] = message
        return context
    }

    /// A POSTed form: URL-encoded, or multipart when it carries a file. nil when unreadable.
    static func readForm(_ bytes: ByteBuffer, contentType: String?) -> WebForm? {
        guard let boundary = MultipartForm.boundary(inContentType: contentType) else { return try? WebForm(String(buffer: bytes)) }
        guard let multipart = try? MultipartForm(Array(buffer: bytes), boundary: boundary) else { return nil }
        var pairs: [(name: String, value: String)] = []
        var files: [String: (fileName: String, data: Data)] = [:]
        for part in multipart.parts {
            if let fileName = part.fileName {
                files[part.name] = (fileName, Data(part.body))
            } else {
                guard let value = String(validating: part.body, as: UTF8.self) else { return nil }
                pairs.append((part.name, value))
            }
        }
        return WebForm(pairs: pairs, files: files)
    }

    /// The largest body each form may send: the import form carries a whole file, a post an image.
    /// A form may be as large as its route allows (`RoutePolicy.body`).
    func maxFormBytes(_ method: HTTPRequest.Method, endpoint: String?) -> Int {
        routes.policy(method, endpoint: endpoint)?.body?.maxBytes ?? config.maxBodyBytes
    }

    static var utcCalendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
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
