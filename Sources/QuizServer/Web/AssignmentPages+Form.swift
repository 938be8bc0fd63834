import Foundation
import Hummingbird
import QuizCore
import QuizStore
import QuizText
import QuizUseCases

/// Setting an assignment: the form (its defaults, what was typed kept after a mistake, each
/// mistake next to its field in the page's language) and the names of the settings' choices.
extension AssignmentPages {
    struct Option: Encodable {
        var value: String
        var label: String
        var selected: Bool?
    }

    struct NewPage: Encodable {
        var quizId: Int64
        var quizTitle: String
        var title: String
        var opensAt: String
        var closesAt: String
        var opensAtOffset: String
        var closesAtOffset: String
        /// The times are what was typed (in the browser's zone): the script leaves them alone.
        var typed: Bool
        var attemptsAllowed: String
        var gradings: [Option]
        var timings: [Option]
        var answersShown: [Option]
        var speedPoints: Bool
        var shuffleQuestions: Bool
        var shuffleAnswers: Bool
        var leaderboardPoints: Bool
        /// The teacher's classes to set it for; the first option is "anyone with the code".
        var classes: [Option]
        var hasClasses: Bool
        var error: String?
        var errors: [String: String]
    }

    /// `classId`: the class whose page sent the teacher here, chosen already.
    func newPage(_ context: SignedInContext, quizId: Int64, classId: Int64?) async throws -> Response {
        let now = pages.time.now()
        var sent = Sent(quizId: quizId, title: try await quizTitle(quizId, user: context.user),
                        opensAt: LocalDateTime.utcValue(now), closesAt: LocalDateTime.utcValue(now.addingTimeInterval(7 * 86_400)),
                        opensAtOffset: "", closesAtOffset: "", settings: AssignmentSettings())
        sent.classId = classId
        return try await formPage(context, sent: sent, typed: false, errors: [])
    }

    /// The quiz's title, or 404 for a quiz this user may not set (as for hosting it live).
    private func quizTitle(_ quizId: Int64, user: User) async throws -> String {
        do {
            return try await games.setup(quizId: quizId, user: user).quiz.title
        } catch .quizNotFound {
            throw HTTPError(.notFound)
        } catch {
            // No question a live game plays (gap fills only): an assignment may still play it.
            return (try? await catalog.quiz(id: quizId).title) ?? ""
        }
    }

    /// What the form sent, as typed.
    struct Sent {
        var quizId: Int64
        var title: String
        var opensAt: String
        var closesAt: String
        var opensAtOffset: String
        var closesAtOffset: String
        var settings: AssignmentSettings
        var attemptsText: String?
        var classId: Int64?

        init(quizId: Int64, title: String, opensAt: String, closesAt: String, opensAtOffset: String, closesAtOffset: String,
             settings: AssignmentSettings, attemptsText: String? = nil) {
            (self.quizId, self.title, self.opensAt, self.closesAt) = (quizId, title, opensAt, closesAt)
            (self.opensAtOffset, self.closesAtOffset, self.settings, self.attemptsText) = (opensAtOffset, closesAtOffset, settings, attemptsText)
        }

        init(_ form: WebForm, quizId: Int64) {
            var settings = AssignmentSettings()
            settings.attemptsAllowed = Int(form.text("attemptsAllowed")) ?? 0
            settings.grading = AssignmentSettings.Grading(rawValue: form.text("grading")) ?? .highest
            settings.timing = AssignmentSettings.Timing(rawValue: form.text("timing")) ?? .none
            settings.answersShown = AssignmentSettings.AnswersShown(rawValue: form.text("answersShown")) ?? .afterFinishing
            settings.speedPoints = form["speedPoints"] != nil
            settings.shuffleQuestions = form["shuffleQuestions"] != nil
            settings.shuffleAnswers = form["shuffleAnswers"] != nil
            settings.leaderboardPoints = form["leaderboardPoints"] != nil
            self.init(quizId: quizId, title: form.text("title"), opensAt: form.text("opensAt"), closesAt: form.text("closesAt"),
                      opensAtOffset: form.text("opensAtOffset"), closesAtOffset: form.text("closesAtOffset"), settings: settings,
                      attemptsText: form.text("attemptsAllowed"))
            classId = Int64(form.text("class"))
        }
    }

    private func formPage(_ context: SignedInContext, sent: Sent, typed: Bool, errors: [FieldError]) async throws -> Response {
        let t = context.visit.t
        // Not an empty chooser on a failed read: the teacher would set for anyone what was meant for a class.
        let taught: [ClassSummary]
        do { taught = try await classes.taught(userId: context.user.id) } catch { throw AssignmentMessages.refusal(.notNow, t: t) }
        let classOptions = [Option(value: "", label: t("No class: anyone with the code"), selected: sent.classId == nil ? true : nil)]
            + taught.map { Option(value: String($0.schoolClass.id), label: $0.schoolClass.name, selected: $0.schoolClass.id == sent.classId ? true : nil) }
        let settings = sent.settings
        func options<Value: RawRepresentable<String> & Equatable>(_ all: [Value], _ chosen: Value, _ label: (Value) -> String) -> [Option] {
            all.map { Option(value: $0.rawValue, label: label($0), selected: $0 == chosen ? true : nil) }
        }
        var messages: [String: String] = [:]
        for error in errors where messages[error.field] == nil { messages[error.field] = Self.message(error, t: t) }
        let model = NewPage(
            quizId: sent.quizId, quizTitle: sent.title, title: sent.title, opensAt: sent.opensAt, closesAt: sent.closesAt,
            opensAtOffset: sent.opensAtOffset, closesAtOffset: sent.closesAtOffset, typed: typed,
            attemptsAllowed: sent.attemptsText ?? String(settings.attemptsAllowed),
            gradings: options(AssignmentSettings.Grading.allCases, settings.grading) { Self.gradingName($0, t) },
            timings: options(AssignmentSettings.Timing.allCases, settings.timing) { Self.timingName($0, t) },
            answersShown: options(AssignmentSettings.AnswersShown.allCases, settings.answersShown) { Self.answersShownName($0, t) },
            speedPoints: settings.speedPoints, shuffleQuestions: settings.shuffleQuestions, shuffleAnswers: settings.shuffleAnswers,
            leaderboardPoints: settings.leaderboardPoints, classes: classOptions, hasClasses: !taught.isEmpty,
            error: errors.isEmpty ? nil : t("Please fix the marked fields; nothing was assigned yet."), errors: messages)
        return pages.render("assignment-new", model, visit: context.visit, title: t("Assign a quiz"), tab: "Quizzes",
                            status: errors.isEmpty ? .ok : .unprocessableContent)
    }

    func create(_ context: SignedInContext) async throws -> Response {
        let form = context.form
        guard let quizId = Int64(form.text("quiz")) else { throw HTTPError(.notFound) }
        let sent = Sent(form, quizId: quizId)
        let closes = LocalDateTime.date(sent.closesAt, offsetMinutes: sent.closesAtOffset)
        let opens = sent.opensAt.trimmingCharacters(in: .whitespaces).isEmpty ? nil : LocalDateTime.date(sent.opensAt, offsetMinutes: sent.opensAtOffset)
        var unread: [FieldError] = []
        if closes == nil { unread.append(FieldError(field: "closesAt", message: "unreadable")) }
        if opens == nil && !sent.opensAt.trimmingCharacters(in: .whitespaces).isEmpty { unread.append(FieldError(field: "opensAt", message: "unreadable")) }
        let title = sent.title.trimmingCharacters(in: .whitespaces)
        // An unreadable close still goes through the rules, so every other mistake shows at once.
        let draft = Assignments.Draft(quizId: quizId, title: title, opensAt: opens, closesAt: closes ?? .distantPast, settings: sent.settings,
                                      classId: sent.classId)
        do {
            let assignment = try await assignments.create(draft, user: context.user)
            return PageRenderer.redirect(to: "/assignments/\(assignment.id)")
        } catch .invalid(let problems) {
            // Opening now, a close before it is simply in the past.
            let kept = problems.filter { problem in !unread.contains { $0.field == problem.field } }.map { problem in
                opens == nil && problem.field == "closesAt" ? FieldError(field: "closesAt", message: "is in the past") : problem
            }
            return try await formPage(context, sent: sent, typed: true, errors: Self.ordered(unread + kept))
        } catch .quizNotFound {
            throw HTTPError(.notFound)
        } catch .noPlayableQuestions {
            return pages.error(context.visit, heading: context.visit.t("Nothing to assign"),
                               message: context.visit.t("This quiz has no question an assignment can play."), status: .unprocessableContent)
        } catch {
            if !unread.isEmpty { return try await formPage(context, sent: sent, typed: true, errors: unread) }
            return AssignmentMessages.page(error, pages: pages, visit: context.visit)
        }
    }

    /// The form's order, so the summary and the fields agree.
    static func ordered(_ errors: [FieldError]) -> [FieldError] {
        let order = ["title", "opensAt", "closesAt", "attemptsAllowed", "speedPoints"]
        return errors.sorted { (order.firstIndex(of: $0.field) ?? order.count) < (order.firstIndex(of: $1.field) ?? order.count) }
    }

    /// A rule's message in the page's language, by the field and what the rule says.
    static func message(_ error: FieldError, t: Texts) -> String {
        switch (error.field, error.message) {
        case ("title", "is empty"): t("Give the assignment a title.")
        case ("title", _): t("Keep the title to {count} characters.", ["count": t.number(Assignment.titleLength.upperBound)])
        case ("opensAt", _): t("Choose a date and time, or leave it empty to open now.")
        case ("closesAt", "unreadable"): t("Choose the date and time it closes.")
        case ("closesAt", "must be after it opens"): t("It must close after it opens.")
        case ("closesAt", _): t("That time has passed: choose a later one.")
        case ("attemptsAllowed", _):
            t("Choose from {min} to {max} attempts.", ["min": t.number(AssignmentSettings.attemptsRange.lowerBound),
                                                       "max": t.number(AssignmentSettings.attemptsRange.upperBound)])
        case ("speedPoints", _): t("Speed points need a time per question: without a clock there is no speed to score.")
        default: t("Please check this field.")
        }
    }

    static func gradingName(_ grading: AssignmentSettings.Grading, _ t: Texts) -> String {
        switch grading {
        case .highest: t("Highest attempt")
        case .first: t("First attempt")
        case .last: t("Last attempt")
        case .average: t("Average of attempts")
        }
    }

    static func timingName(_ timing: AssignmentSettings.Timing, _ t: Texts) -> String {
        switch timing {
        case .none: t("No time limit")
        case .questionsOwn: t("Each question's own time (30 s when it has none)")
        }
    }

    static func answersShownName(_ shown: AssignmentSettings.AnswersShown, _ t: Texts) -> String {
        switch shown {
        case .afterEachQuestion: t("After each question")
        case .afterFinishing: t("After finishing")
        case .afterClose: t("After it closes")
        }
    }
}
