import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import QuizCore
import QuizStore
import QuizText
import QuizUseCases

/// The teacher's pages of assignments: setting one from a quiz, "My assignments", and an
/// assignment's own page (its code, link and QR code, the window's buttons, the progress and the
/// report, `AssignmentPages+Report`). Only the owner sees an assignment: anyone else gets 404.
struct AssignmentPages: Sendable {
    let pages: Pages
    let assignments: Assignments
    /// The quiz's title and whether this user may set it (the rule of hosting a live game).
    let games: LiveGames
    let catalog: BrowseCatalog
    /// The teacher's classes, to set an assignment for one.
    let classes: Classes
    /// Draws the player link's QR code as SVG.
    let qrCode: @Sendable (String) -> String

    func register(signedIn: some RouterMethods<SignedInContext>) {
        signedIn.get("/assignments") { _, context in try await listPage(context) }
        signedIn.get("/assignments/new") { request, context in
            guard let quizId = request.uri.queryParameters["quiz"].flatMap({ Int64($0) }) else { throw HTTPError(.notFound) }
            return try await newPage(context, quizId: quizId, classId: request.uri.queryParameters["class"].flatMap { Int64($0) })
        }
        signedIn.post("/assignments", policy: .resendable, in: pages.routes) { _, context in try await create(context) }
        signedIn.get("/assignments/:id") { request, context in try await assignmentPage(context, id: context.pathID("id"), request: request) }
        signedIn.post("/assignments/:id/close") { request, context in try await closeNow(context, id: context.pathID("id"), request: request) }
        signedIn.post("/assignments/:id/extend") { request, context in
            try await moveClose(context, id: context.pathID("id"), request: request)
        }
        signedIn.get("/assignments/:id/report.csv") { request, context in
            try await reportCSV(context, id: context.pathID("id"), separator: request.uri.queryParameters["separator"].map(String.init))
        }
        signedIn.get("/assignments/:id/report.json") { _, context in try await reportJSON(context, id: context.pathID("id")) }
        signedIn.get("/assignments/:id/report.xlsx") { _, context in try await reportWorkbook(context, id: context.pathID("id")) }
    }

    // MARK: My assignments

    struct When: Encodable {
        var text: String
        var iso: String

        init(_ date: Date, t: Texts) {
            (text, iso) = (t.dateTime(date), LocalDateTime.iso(date))
        }
    }

    struct ListLine: Encodable {
        var id: Int64
        var title: String
        var quizTitle: String?
        var code: String
        var state: String
        var stateLabel: String
        var opensAt: When
        var closesAt: When
        var notOpen: Bool
        var players: String
        var finished: String
    }

    struct ListPage: Encodable {
        var assignments: [ListLine]
    }

    func listPage(_ context: SignedInContext) async throws -> Response {
        let t = context.visit.t
        let now = pages.time.now()
        let mine: [AssignmentSummary]
        do { mine = try await assignments.mine(userId: context.user.id) } catch { return AssignmentMessages.page(error, pages: pages, visit: context.visit) }
        var titles: [Int64: String] = [:]
        for quizId in Set(mine.map(\.assignment.quizId)) { titles[quizId] = try? await catalog.quiz(id: quizId).title }
        let lines = mine.map { summary in
            let assignment = summary.assignment
            let window = assignment.window(at: now)
            return ListLine(id: assignment.id, title: assignment.title, quizTitle: titles[assignment.quizId], code: assignment.code,
                            state: Self.stateClass(window), stateLabel: Self.stateName(window, t), opensAt: When(assignment.opensAt, t: t),
                            closesAt: When(assignment.closesAt, t: t), notOpen: window == .notOpen,
                            players: t.count(summary.players, "{count} started", "{count} started"),
                            finished: t.count(summary.finished, "{count} finished", "{count} finished"))
        }
        return pages.render("assignments", ListPage(assignments: lines), visit: context.visit, title: t("My assignments"), tab: "Quizzes")
    }

    static func stateClass(_ window: Assignment.Window) -> String {
        switch window {
        case .notOpen: "opens"
        case .open: "open"
        case .closed: "closed"
        }
    }

    static func stateName(_ window: Assignment.Window, _ t: Texts) -> String {
        switch window {
        case .notOpen: t("Not open yet")
        case .open: t("Open")
        case .closed: t("Closed")
        }
    }

    // MARK: The window

    func closeNow(_ context: SignedInContext, id: Int64, request: Request) async throws -> Response {
        do {
            _ = try await assignments.closeNow(id: id, userId: context.user.id)
        } catch .assignmentNotFound {
            throw HTTPError(.notFound)
        } catch {
            return AssignmentMessages.page(error, pages: pages, visit: context.visit)
        }
        return PageRenderer.redirect(to: "/assignments/\(id)?moved=closed")
    }

    /// Extends an open assignment or reopens a closed one: the use case treats both alike.
    func moveClose(_ context: SignedInContext, id: Int64, request: Request) async throws -> Response {
        let form = context.form
        guard let closes = LocalDateTime.date(form.text("closesAt"), offsetMinutes: form.text("closesAtOffset")) else {
            return try await assignmentPage(context, id: id, request: request, closeError: context.visit.t("Choose the date and time it closes."))
        }
        do {
            _ = try await assignments.extend(id: id, userId: context.user.id, closesAt: closes)
        } catch .assignmentNotFound {
            throw HTTPError(.notFound)
        } catch .invalid(let problems) {
            // A close before now is in the past, even where the rule first finds it before the opening.
            let past = closes <= pages.time.now() ? [FieldError(field: "closesAt", message: "is in the past")] : problems
            return try await assignmentPage(context, id: id, request: request, closeError: past.first.map { Self.message($0, t: context.visit.t) })
        } catch {
            return AssignmentMessages.page(error, pages: pages, visit: context.visit)
        }
        return PageRenderer.redirect(to: "/assignments/\(id)?moved=extended")
    }

    // MARK: Report files

    func ownedReport(_ context: SignedInContext, id: Int64) async throws -> Assignments.Report {
        do {
            return try await assignments.report(id: id, userId: context.user.id)
        } catch .assignmentNotFound {
            throw HTTPError(.notFound)
        } catch {
            throw AssignmentMessages.refusal(error, t: context.visit.t)
        }
    }

    func reportCSV(_ context: SignedInContext, id: Int64, separator: String?) async throws -> Response {
        let report = try await ownedReport(context, id: id)
        let separator = LiveResultsExport.Separator(parameter: separator, language: context.visit.t.language)
        return Self.download(Data(report.csv(separator: separator.character).utf8), type: "text/csv; charset=utf-8", name: "assignment-\(id).csv")
    }

    func reportJSON(_ context: SignedInContext, id: Int64) async throws -> Response {
        let report = try await ownedReport(context, id: id)
        return Self.download(try report.json(), type: "application/json", name: "assignment-\(id).json")
    }

    func reportWorkbook(_ context: SignedInContext, id: Int64) async throws -> Response {
        let report = try await ownedReport(context, id: id)
        return Self.download(AssignmentReportWorkbook(report: report).data(t: context.visit.t),
                             type: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", name: "assignment-\(id).xlsx")
    }

    static func download(_ bytes: Data, type: String, name: String) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = type
        headers[.contentDisposition] = "attachment; filename=\"\(name)\""
        headers[.cacheControl] = "no-store"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
