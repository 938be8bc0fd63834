import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import QuizCore
import QuizStore
import QuizText
import QuizUseCases

/// The pages of classes: "My classes" with the form to create one, a class's page (the teacher's:
/// code, link and QR code, students, joining, assignments, the gradebook; a student's: the
/// assignments and their own row), joining with a code or a link, and the gradebook's downloads.
/// Signed in only: a signed-out visitor is sent to log in and comes back to the same address.
struct ClassPages: Sendable {
    let pages: Pages
    let classes: Classes
    /// The quizzes a teacher can assign to the class from its page.
    let catalog: BrowseCatalog
    /// Draws the join address's QR code as SVG.
    let qrCode: @Sendable (String) -> String

    func register(signedIn: some RouterMethods<SignedInContext>) {
        signedIn.get("/classes") { _, context in try await myClasses(context) }
        signedIn.post("/classes", policy: .resendable, in: pages.routes) { _, context in try await create(context) }
        signedIn.get("/classes/join") { request, context in
            joinPage(context, code: request.uri.queryParameters["code"].map(String.init) ?? "")
        }
        signedIn.get("/classes/join/:code") { _, context in joinPage(context, code: try context.parameters.require("code")) }
        signedIn.post("/classes/join", policy: .resendable, in: pages.routes) { request, context in try await join(context, request: request) }
        signedIn.get("/classes/:id") { request, context in try await classPage(context, id: context.pathID("id"), request: request) }
        signedIn.post("/classes/:id/name", policy: .resendable, in: pages.routes) { request, context in
            try await rename(context, id: context.pathID("id"), request: request)
        }
        signedIn.post("/classes/:id/joining") { _, context in try await setJoining(context, id: context.pathID("id")) }
        signedIn.post("/classes/:id/members/:user/remove") { _, context in
            try await remove(context, id: context.pathID("id"), student: context.pathID("user"))
        }
        signedIn.post("/classes/:id/leave") { _, context in try await leave(context, id: context.pathID("id")) }
        signedIn.get("/classes/:id/gradebook.csv") { request, context in
            try await gradebookCSV(context, id: context.pathID("id"), separator: request.uri.queryParameters["separator"].map(String.init))
        }
        signedIn.get("/classes/:id/gradebook.xlsx") { _, context in try await gradebookWorkbook(context, id: context.pathID("id")) }
    }

    // MARK: My classes

    struct TaughtLine: Encodable {
        var id: Int64
        var name: String
        var code: String
        var members: String
        var assignments: String
        var joiningClosed: Bool
    }

    struct JoinedLine: Encodable {
        var id: Int64
        var name: String
    }

    struct ClassesPage: Encodable {
        var taught: [TaughtLine]
        var joined: [JoinedLine]
        var name: String
        var nameError: String?
        var maxName: Int
    }

    func myClasses(_ context: SignedInContext, name: String = "", nameError: String? = nil) async throws -> Response {
        let t = context.visit.t
        let taught = try await use { () async throws(Classes.Failure) in try await classes.taught(userId: context.user.id) }
        let joined = try await use { () async throws(Classes.Failure) in try await classes.joined(userId: context.user.id) }
        let model = ClassesPage(
            taught: taught.map { summary in
                TaughtLine(id: summary.schoolClass.id, name: summary.schoolClass.name, code: summary.schoolClass.code,
                           members: t.count(summary.members, "{count} student", "{count} students"),
                           assignments: t.count(summary.assignments, "{count} assignment", "{count} assignments"),
                           joiningClosed: !summary.schoolClass.joiningOpen)
            },
            joined: joined.map { JoinedLine(id: $0.id, name: $0.name) }, name: name, nameError: nameError, maxName: SchoolClass.nameLength.upperBound)
        return pages.render("classes", model, visit: context.visit, title: t("My classes"), tab: "Home",
                            status: nameError == nil ? .ok : .unprocessableContent)
    }

    func create(_ context: SignedInContext) async throws -> Response {
        let name = String(context.form.text("name").prefix(400))
        do {
            let created = try await classes.create(name: name, user: context.user)
            return PageRenderer.redirect(to: "/classes/\(created.id)")
        } catch .notNow {
            throw HTTPError(.serviceUnavailable)
        } catch {
            return try await myClasses(context, name: name, nameError: context.visit.t(error.message))
        }
    }

    // MARK: Joining

    struct JoinPage: Encodable {
        var code: String
        var error: String?
    }

    /// The join form, the code filled in from a link; joining itself is the form's POST.
    func joinPage(_ context: SignedInContext, code: String, error: String? = nil, status: HTTPResponse.Status = .ok) -> Response {
        let digits = String(code.filter(\.isASCII).filter(\.isNumber).prefix(6))
        return pages.render("class-join", JoinPage(code: digits, error: error), visit: context.visit, title: context.visit.t("Join a class"),
                            tab: "Home", status: status)
    }

    func join(_ context: SignedInContext, request: Request) async throws -> Response {
        let code = String(context.form.text("code").prefix(32))
        do {
            let joining = try await classes.join(code: code, user: context.user, address: ClientAddress.current)
            return PageRenderer.redirect(to: "/classes/\(joining.schoolClass.id)")
        } catch .notNow {
            throw HTTPError(.serviceUnavailable)
        } catch {
            let status: HTTPResponse.Status = error == .rateLimited ? .tooManyRequests : error == .classNotFound ? .notFound : .conflict
            return joinPage(context, code: code, error: context.visit.t(error.message), status: status)
        }
    }

    // MARK: A class

    struct MemberLine: Encodable {
        var userId: Int64
        var username: String
        var joined: String
    }

    struct AssignmentLine: Encodable {
        var title: String
        /// The teacher's report, or the student's way in.
        var href: String
        var due: String
        var open: Bool
    }

    /// A subject's quizzes in the class page's "assign a quiz" chooser.
    struct QuizGroup: Encodable {
        var subject: String
        var quizzes: [QuizOption]
    }

    struct QuizOption: Encodable {
        var id: Int64
        var title: String
    }

    struct ClassPage: Encodable {
        var id: Int64
        var name: String
        var isOwner: Bool
        var code: String?
        var joinURL: String?
        var qrSVG: PageHTML?
        var joiningOpen: Bool
        var members: [MemberLine]
        var memberCount: String
        var assignments: [AssignmentLine]
        var gradebook: PageHTML?
        var nameError: String?
        var maxName: Int
        /// The owner's: every quiz, by subject, to set as this class's assignment.
        var quizGroups: [QuizGroup]?
        var canAssign = false
    }

    func classPage(_ context: SignedInContext, id: Int64, request: Request, nameError: String? = nil) async throws -> Response {
        let t = context.visit.t
        let view = try await use { () async throws(Classes.Failure) in try await classes.view(id: id, userId: context.user.id) }
        let now = pages.time.now()
        var model = ClassPage(
            id: id, name: view.schoolClass.name, isOwner: view.isOwner, joiningOpen: view.schoolClass.joiningOpen,
            members: view.members.map { MemberLine(userId: $0.userId, username: $0.username, joined: t.date($0.joinedAt)) },
            memberCount: t.count(view.members.count, "{count} student", "{count} students"),
            assignments: view.assignments.map { assignment in
                AssignmentLine(title: assignment.title, href: view.isOwner ? "/assignments/\(assignment.id)" : "/a/\(assignment.code)",
                               due: DueText.of(assignment, at: now, t: t), open: assignment.window(at: now) == .open)
            },
            gradebook: view.assignments.isEmpty || view.gradebook.rows.isEmpty ? nil : PageHTML(GradebookTable.html(view.gradebook, at: now, t: t)),
            nameError: nameError, maxName: SchoolClass.nameLength.upperBound)
        if view.isOwner {
            let base = pages.config.publicURL.isEmpty ? request.head.authority.map { "http://\($0)" } ?? "" : pages.config.publicURL
            let joinURL = base + "/classes/join/" + view.schoolClass.code
            (model.code, model.joinURL, model.qrSVG) = (view.schoolClass.code, joinURL, PageHTML(qrCode(joinURL)))
            var groups: [QuizGroup] = []
            for listing in try await catalog.quizzes().map(\.listing) {
                let option = QuizOption(id: listing.quiz.id, title: listing.topicName + " › " + listing.quiz.title)
                if groups.last?.subject == listing.subjectName { groups[groups.count - 1].quizzes.append(option) } else {
                    groups.append(QuizGroup(subject: listing.subjectName, quizzes: [option]))
                }
            }
            (model.quizGroups, model.canAssign) = (groups, !groups.isEmpty)
        }
        return pages.render("class", model, visit: context.visit, title: view.schoolClass.name, tab: "Home",
                            status: nameError == nil ? .ok : .unprocessableContent)
    }

    func rename(_ context: SignedInContext, id: Int64, request: Request) async throws -> Response {
        do {
            _ = try await classes.rename(id: id, name: String(context.form.text("name").prefix(400)), userId: context.user.id)
            return PageRenderer.redirect(to: "/classes/\(id)")
        } catch .invalid(let problems) {
            return try await classPage(context, id: id, request: request, nameError: context.visit.t(Classes.Failure.invalid(problems).message))
        } catch {
            throw Self.httpError(error)
        }
    }

    func setJoining(_ context: SignedInContext, id: Int64) async throws -> Response {
        let open = context.form.text("open") == "1"
        try await use { () async throws(Classes.Failure) in _ = try await classes.setJoining(id: id, open: open, userId: context.user.id) }
        return PageRenderer.redirect(to: "/classes/\(id)")
    }

    func remove(_ context: SignedInContext, id: Int64, student: Int64) async throws -> Response {
        do {
            try await classes.remove(userId: student, from: id, ownerId: context.user.id)
        } catch .notMember {
            // Removed already (a second click, another tab): the page shows the class as it is.
        } catch {
            throw Self.httpError(error)
        }
        return PageRenderer.redirect(to: "/classes/\(id)")
    }

    func leave(_ context: SignedInContext, id: Int64) async throws -> Response {
        try await use { () async throws(Classes.Failure) in try await classes.leave(id: id, userId: context.user.id) }
        return PageRenderer.redirect(to: "/classes")
    }

    // MARK: Downloads

    /// Comma-separated, or (`separator=semicolon`, or a Finnish page) semicolon-separated with a BOM.
    func gradebookCSV(_ context: SignedInContext, id: Int64, separator: String?) async throws -> Response {
        let (_, book) = try await use { () async throws(Classes.Failure) in try await classes.gradebook(id: id, userId: context.user.id) }
        let separator = LiveResultsExport.Separator(parameter: separator, language: context.visit.t.language)
        return PageRenderer.download(Data(book.csv(separator: separator.character).utf8), type: "text/csv; charset=utf-8", name: "gradebook-\(id).csv")
    }

    func gradebookWorkbook(_ context: SignedInContext, id: Int64) async throws -> Response {
        let t = context.visit.t
        let (_, book) = try await use { () async throws(Classes.Failure) in try await classes.gradebook(id: id, userId: context.user.id) }
        return PageRenderer.download(book.workbook(sheet: t("Gradebook"), student: t("Student"), average: t("Average")),
                                     type: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", name: "gradebook-\(id).xlsx")
    }

    /// `body`'s result; a refusal a page does not show next to a field as an HTTP error page.
    private func use<T>(_ body: () async throws(Classes.Failure) -> T) async throws -> T {
        do { return try await body() } catch { throw Self.httpError(error) }
    }

    static func httpError(_ failure: Classes.Failure) -> HTTPError {
        switch failure {
        case .classNotFound, .notMember: HTTPError(.notFound)
        case .rateLimited: HTTPError(.tooManyRequests)
        case .notNow: HTTPError(.serviceUnavailable)
        case .invalid, .tooManyClasses, .joiningClosed, .classFull, .ownClass: HTTPError(.conflict)
        }
    }
}
