import Foundation
import HTTPTypes
import Hummingbird
import QuizCore
import QuizText
import QuizUseCases

/// The players' pages of an assignment, no account needed: `/a` asks for the code, `/a/{code}`
/// joins (a nickname, or the signed-in account), continues on another device (nickname and rejoin
/// code), waits for the opening, says it is closed, or carries on where the player was. The
/// browser keeps the player's secret in a cookie of its own per assignment (`PlayerCookie`).
/// Playing is on the solo play screens' pieces (`AssignmentPlayPages+Playing`).
struct AssignmentPlayPages: Sendable {
    let pages: Pages
    let assignments: Assignments

    var fragments: QuestionFragments { QuestionFragments(renderer: pages.renderer) }

    func register(anyone: some RouterMethods<PageContext>) {
        anyone.get("/a") { request, context in try enterCode(context, sent: request.uri.queryParameters["code"].map(String.init)) }
        anyone.get("/a/:code") { request, context in try await hub(context, code: try Self.code(context), request: request) }
        anyone.post("/a/:code/join", policy: .resendable, in: pages.routes) { _, context in try await join(context, code: try Self.code(context)) }
        anyone.post("/a/:code/rejoin", policy: .resendable, in: pages.routes) { _, context in
            try await rejoin(context, code: try Self.code(context))
        }
        anyone.post("/a/:code/start") { request, context in try await start(context, code: try Self.code(context), request: request) }
        anyone.get("/a/:code/play") { request, context in try await play(context, code: try Self.code(context), request: request) }
        anyone.post("/a/:code/answer", policy: .resendable, in: pages.routes) { request, context in
            try await answer(context, code: try Self.code(context), request: request)
        }
        anyone.post("/a/:code/finish") { request, context in try await finish(context, code: try Self.code(context), request: request) }
        anyone.get("/a/:code/result") { request, context in
            try await result(context, code: try Self.code(context), request: request,
                             attempt: request.uri.queryParameters["attempt"].flatMap { Int($0) })
        }
    }

    /// Six digits, or no such page.
    static func code(_ context: PageContext) throws -> String {
        let code = try context.parameters.require("code")
        guard code.utf8.count == 6, code.allSatisfy({ $0.isASCII && $0.isNumber }) else { throw HTTPError(.notFound) }
        return code
    }

    // MARK: Joining

    struct JoinPage: Encodable {
        var code: String?
        var codeError: String?
        var username: String?
        var nickname: String?
        var nicknameError: String?
        var rejoinNickname: String?
        var rejoinError: String?
    }

    func enterCode(_ context: PageContext, sent: String?) throws -> Response {
        let t = context.visit.t
        guard let sent else {
            return pages.render("assignment-join", JoinPage(), visit: context.visit, title: t("Join an assignment"))
        }
        let digits = String(sent.filter { !$0.isWhitespace })
        if digits.utf8.count == 6, digits.allSatisfy({ $0.isASCII && $0.isNumber }) { return PageRenderer.redirect(to: "/a/\(digits)") }
        return pages.render("assignment-join", JoinPage(codeError: t("The code has six digits.")), visit: context.visit,
                            title: t("Join an assignment"), status: .unprocessableContent)
    }

    func joinPage(_ context: PageContext, code: String, model: JoinPage? = nil, status: HTTPResponse.Status = .ok,
                  cookies: [String] = []) -> Response {
        var model = model ?? JoinPage()
        model.code = code
        model.username = context.visit.user?.username
        var response = pages.render("assignment-join", model, visit: context.visit, title: context.visit.t("Join assignment {code}", ["code": code]),
                                    status: status)
        for cookie in cookies { response.headers.append(HTTPField(name: .setCookie, value: cookie)) }
        return response
    }

    func join(_ context: PageContext, code: String) async throws -> Response {
        let t = context.visit.t
        let nickname = context.form.text("nickname")
        do {
            let joined = try await assignments.join(code: code, nickname: nickname, user: context.visit.user, address: ClientAddress.current)
            return PageRenderer.redirect(to: "/a/\(code)", cookies: [cookie(joined, code: code, rejoin: joined.code)])
        } catch .nicknameInvalid {
            return joinPage(context, code: code, model: JoinPage(nickname: nickname, nicknameError: Self.nicknameRule(t)), status: .unprocessableContent)
        } catch .nicknameTaken {
            return joinPage(context, code: code, model: JoinPage(nickname: nickname,
                                                                 nicknameError: t("Someone in this assignment already has that nickname.")),
                            status: .conflict)
        } catch .closed {
            return closedPage(context, code: code, standing: nil)
        } catch .signInRequired {
            // A class's assignment: signed in, the join comes back here.
            return PageRenderer.redirect(to: "/login?next=\(Pages.encode("/a/\(code)"))")
        } catch {
            return AssignmentMessages.page(error, pages: pages, visit: context.visit)
        }
    }

    static func nicknameRule(_ t: Texts) -> String {
        t("Choose a nickname of 1 to 20 letters, digits or spaces.")
    }

    func rejoin(_ context: PageContext, code: String) async throws -> Response {
        let t = context.visit.t
        let nickname = context.form.text("nickname")
        do {
            let joined = try await assignments.rejoin(code: code, nickname: nickname, rejoinCode: context.form.text("rejoinCode"),
                                                      address: ClientAddress.current)
            return PageRenderer.redirect(to: "/a/\(code)", cookies: [cookie(joined, code: code, rejoin: joined.code)])
        } catch .badRejoin {
            return joinPage(context, code: code, model: JoinPage(rejoinNickname: nickname,
                                                                 rejoinError: t("That nickname and rejoin code do not match a player here.")),
                            status: .unprocessableContent)
        } catch {
            return AssignmentMessages.page(error, pages: pages, visit: context.visit)
        }
    }

    // MARK: The player's cookie

    /// "quizbox_a123456": the assignment's id, the player's id and secret and (without an account)
    /// the rejoin code, kept by the browser for this assignment's pages only. HttpOnly: no script
    /// reads it; SameSite=Lax: the link opened from a message or a QR code still finds it.
    static func cookieName(_ code: String) -> String { "quizbox_a\(code)" }

    static let cookieLifetime = 180 * 86_400

    func cookie(_ joined: Assignments.Joined, code: String, rejoin: String?) -> String {
        let value = [String(joined.assignment.id), String(joined.playerId), joined.secret] + (rejoin.map { [$0] } ?? [])
        return "\(Self.cookieName(code))=\(value.joined(separator: ".")); Path=/a/\(code); Max-Age=\(Self.cookieLifetime); HttpOnly; SameSite=Lax"
            + (pages.config.secureCookies ? "; Secure" : "")
    }

    func clearingCookie(code: String) -> String {
        "\(Self.cookieName(code))=; Path=/a/\(code); Max-Age=0; HttpOnly; SameSite=Lax" + (pages.config.secureCookies ? "; Secure" : "")
    }

    struct Kept {
        var assignmentId: Int64
        var pass: Assignments.Pass
        var rejoin: String?
    }

    static func kept(_ request: Request, code: String) -> Kept? {
        guard let value = request.cookie(cookieName(code)) else { return nil }
        let parts = value.split(separator: ".", maxSplits: 3).map(String.init)
        guard parts.count >= 3, let assignmentId = Int64(parts[0]), let playerId = Int64(parts[1]), !parts[2].isEmpty else { return nil }
        return Kept(assignmentId: assignmentId, pass: .secret(playerId: playerId, secret: parts[2]), rejoin: parts.count > 3 ? parts[3] : nil)
    }

    /// The player this browser is in this assignment, or the join page (clearing a cookie that no
    /// longer works: a rejoin elsewhere replaced its secret). A signed-in player whose secret was
    /// replaced by joining on another device is still themselves here: their account is the pass.
    func player(_ context: PageContext, code: String, request: Request) async throws -> Result<(Kept, Assignments.Standing), PageExit> {
        guard var kept = Self.kept(request, code: code) else { return .failure(PageExit(response: PageRenderer.redirect(to: "/a/\(code)"))) }
        let forgotten = PageExit(response: joinPage(context, code: code, cookies: [clearingCookie(code: code)]))
        var standing: Assignments.Standing?
        do {
            standing = try await assignments.standing(kept.pass, assignmentId: kept.assignmentId)
        } catch .notResumable {
            if let user = context.visit.user {
                kept.pass = .user(user.id)
                do { standing = try await assignments.standing(kept.pass, assignmentId: kept.assignmentId) } catch .notResumable {} catch {
                    return .failure(PageExit(response: AssignmentMessages.page(error, pages: pages, visit: context.visit)))
                }
            }
        } catch {
            return .failure(PageExit(response: AssignmentMessages.page(error, pages: pages, visit: context.visit)))
        }
        // Another assignment's player, under this one's cookie: not this browser's player here.
        guard let standing, standing.assignment.code == code else { return .failure(forgotten) }
        return .success((kept, standing))
    }

    struct PageExit: Error {
        var response: Response
    }

    // MARK: Where the player stands

    struct HubPage: Encodable {
        var code: String
        var title: String
        var nickname: String
        var signedIn: Bool
        var rejoinCode: String?
        var opensAt: AssignmentPages.When
        var closesAt: AssignmentPages.When
        var waiting: Bool
        /// Milliseconds since 1970: the waiting page reloads itself then.
        var opensAtMilliseconds: Int64
        var closed: Bool
        var canStart: Bool
        var settings: [String]
        var questionCount: String?
    }

    func hub(_ context: PageContext, code: String, request: Request) async throws -> Response {
        guard Self.kept(request, code: code) != nil else { return joinPage(context, code: code) }
        let kept: Kept, standing: Assignments.Standing
        switch try await player(context, code: code, request: request) {
        case .success(let found): (kept, standing) = found
        case .failure(let exit): return exit.response
        }
        // Back where they were: the question being played, else their result once they have one.
        if standing.window == .open, standing.current != nil { return PageRenderer.redirect(to: "/a/\(code)/play") }
        if standing.window != .notOpen, !standing.attempts.isEmpty { return PageRenderer.redirect(to: "/a/\(code)/result") }
        if standing.window == .closed { return closedPage(context, code: code, standing: standing) }
        return hubPage(context, code: code, standing: standing, rejoin: kept.rejoin)
    }

    private func hubPage(_ context: PageContext, code: String, standing: Assignments.Standing, rejoin: String?) -> Response {
        let t = context.visit.t
        let assignment = standing.assignment
        let model = HubPage(
            code: code, title: assignment.title, nickname: standing.nickname, signedIn: standing.userId != nil,
            rejoinCode: standing.userId == nil ? rejoin : nil, opensAt: .init(assignment.opensAt, t: t), closesAt: .init(assignment.closesAt, t: t),
            waiting: standing.window == .notOpen, opensAtMilliseconds: Int64((assignment.opensAt.timeIntervalSince1970 * 1000).rounded()),
            closed: false, canStart: standing.window == .open && standing.attemptsLeft > 0, settings: Self.playerSettings(assignment, t: t),
            questionCount: t.count(assignment.questionIds.count, "{count} question", "{count} questions"))
        return pages.render("assignment-player", model, visit: context.visit, title: assignment.title)
    }

    func closedPage(_ context: PageContext, code: String, standing: Assignments.Standing?) -> Response {
        let t = context.visit.t
        guard let standing else {
            return pages.error(context.visit, heading: t("This assignment is closed"),
                               message: t("It no longer takes answers, so it cannot be joined."), status: .gone)
        }
        let assignment = standing.assignment
        let model = HubPage(code: code, title: assignment.title, nickname: standing.nickname, signedIn: standing.userId != nil,
                            opensAt: .init(assignment.opensAt, t: t), closesAt: .init(assignment.closesAt, t: t), waiting: false,
                            opensAtMilliseconds: 0, closed: true, canStart: false, settings: [])
        return pages.render("assignment-player", model, visit: context.visit, title: assignment.title)
    }

    /// What a player should know before starting.
    static func playerSettings(_ assignment: Assignment, t: Texts) -> [String] {
        let settings = assignment.settings
        var lines = [t.count(settings.attemptsAllowed, "{count} attempt allowed", "{count} attempts allowed")]
        lines.append(settings.timing == .none ? t("No time limit on the questions") : t("Each question has a time limit"))
        lines.append(t("Right answers shown: {when}", ["when": AssignmentPages.answersShownName(settings.answersShown, t).lowercased()]))
        return lines
    }
}
