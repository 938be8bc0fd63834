import Foundation
import HTTPTypes
import Hummingbird
import QuizCore
import QuizText

/// What a page knows about the person looking at it, worked out once per request by `PageMiddleware`.
struct Visit: Sendable {
    var user: User?
    var sessionExpired = false
    var csrf: String
    /// Cookies the response must carry (a new CSRF token, a cleared session).
    var cookies: [String] = []
    /// Where a signed-out visitor comes back to after logging in.
    var returnPath = "/home"
    /// The form a POST carried, read and CSRF-checked.
    var form: WebForm?
    /// The page's language: the user's choice, else the language cookie, else `Accept-Language`.
    var language: Language = .en

    /// This visit's texts: `visit.t("Log in")`.
    var t: Texts { Texts.of(language) }
}

/// Thrown to end a page with a redirect (to the login page, most often).
struct Redirect: Error {
    var location: String
}

/// A page the visitor may not use, explained on the error page or on `template`, a page that says
/// it better (rendered with the heading, the message and the visitor's role).
struct PageRefusal: Error {
    var status: HTTPResponse.Status
    var heading: String
    var message: String
    var template = "error"

    /// Shown on /manage itself, which says what an author may do and how to become one.
    static let needsAuthor = PageRefusal(status: .forbidden, heading: "Create and manage quizzes",
                                         message: "Creating and managing quizzes needs an author or admin account. An admin can make you an author.",
                                         template: "manage")
    static let needsAdmin = PageRefusal(status: .forbidden, heading: "Only admins manage roles",
                                        message: "Changing who is a player, author or admin needs an admin account.")
}

/// The context of a page anyone may see.
struct PageContext: ChildRequestContext {
    var coreContext: CoreRequestContextStorage
    let visit: Visit

    init(context: AppRequestContext) throws {
        coreContext = context.coreContext
        guard let visit = context.visit else { throw HTTPError(.internalServerError) }
        self.visit = visit
    }

    /// The form of a POST route (routes of this context are only registered behind the middleware).
    var form: WebForm { visit.form ?? WebForm(pairs: [], files: [:]) }
}

/// The context of a page for signed-in people: the user comes from the session, and a visitor
/// without one is sent to log in and brought back afterwards.
struct SignedInContext: ChildRequestContext {
    var coreContext: CoreRequestContextStorage
    let visit: Visit
    let user: User

    init(context: AppRequestContext) throws {
        coreContext = context.coreContext
        guard let visit = context.visit else { throw HTTPError(.internalServerError) }
        guard let user = visit.user else {
            throw Redirect(location: "/login?next=\(Pages.encode(visit.returnPath))\(visit.sessionExpired ? "&expired=1" : "")")
        }
        self.visit = visit
        self.user = user
    }

    var form: WebForm { visit.form ?? WebForm(pairs: [], files: [:]) }
}

/// The context of an authoring page: signed in as an author or admin; anyone else is refused
/// with a page that says what they may do.
struct AuthorContext: ChildRequestContext {
    var coreContext: CoreRequestContextStorage
    let visit: Visit
    let user: User

    init(context: AppRequestContext) throws {
        let signedIn = try SignedInContext(context: context)
        guard signedIn.user.role.canAuthor else { throw PageRefusal.needsAuthor }
        (coreContext, visit, user) = (signedIn.coreContext, signedIn.visit, signedIn.user)
    }

    var form: WebForm { visit.form ?? WebForm(pairs: [], files: [:]) }
}

/// The context of a page only admins may use (users and roles). A player is refused as on every
/// manage page, with what an author may do; an author is told that roles are for admins.
struct AdminContext: ChildRequestContext {
    var coreContext: CoreRequestContextStorage
    let visit: Visit
    let user: User

    init(context: AppRequestContext) throws {
        let author = try AuthorContext(context: context)
        guard author.user.role.canManageUsers else { throw PageRefusal.needsAdmin }
        (coreContext, visit, user) = (author.coreContext, author.visit, author.user)
    }

    var form: WebForm { visit.form ?? WebForm(pairs: [], files: [:]) }
}
