import Foundation
import HTTPTypes
import Hummingbird
import QuizCore
import QuizStore
import QuizText
import QuizUseCases

/// Playing an assignment on the solo play screens' pieces: the question's heading and fields (so
/// every kind looks and answers as in solo play, and shows nothing more before its answer), the
/// countdown when it has a time per question, the verdict after each answer only when the
/// settings show answers then, and the result.
extension AssignmentPlayPages {
    struct QuestionPage: Encodable {
        var code: String
        var title: String
        /// 1-based.
        var number: Int
        /// 0-based, sent back with the answer.
        var position: Int
        var count: Int
        var questionHead: PageHTML?
        var questionFields: PageHTML?
        var isSlide: Bool?
        var timed: Bool?
        var secondsLeft: Int?
        var timeLimit: Int?
        var deadline: Int64?
        var feedback: String?
        var notice: String?
        var done: Bool?
        // After an answer, when the settings show it.
        var answered: Bool?
        var verdictClass: String?
        var verdictIcon: String?
        var verdictText: String?
        var given: String?
        var correctAnswer: String?
        var explanation: String?
        var answeredTiles: [QuestionFragments.AnsweredTile]?
        var hasAnsweredTiles: Bool?
        var twoTiles: Bool?
    }

    func start(_ context: PageContext, code: String, request: Request) async throws -> Response {
        let kept: Kept
        switch try await player(context, code: code, request: request) {
        case .success(let found): kept = found.0
        case .failure(let exit): return exit.response
        }
        do {
            _ = try await assignments.start(kept.pass, assignmentId: kept.assignmentId)
            return PageRenderer.redirect(to: "/a/\(code)/play")
        } catch .notOpen, .closed, .notResumable {
            return PageRenderer.redirect(to: "/a/\(code)")
        } catch {
            return AssignmentMessages.page(error, pages: pages, visit: context.visit)
        }
    }

    func play(_ context: PageContext, code: String, request: Request, formError: String? = nil) async throws -> Response {
        let kept: Kept, standing: Assignments.Standing
        switch try await player(context, code: code, request: request) {
        case .success(let found): (kept, standing) = found
        case .failure(let exit): return exit.response
        }
        let next: Assignments.Next
        do {
            next = try await assignments.next(kept.pass, assignmentId: kept.assignmentId)
        } catch .noAttempt, .notOpen, .closed {
            return PageRenderer.redirect(to: "/a/\(code)")
        } catch {
            return AssignmentMessages.page(error, pages: pages, visit: context.visit)
        }
        let t = context.visit.t
        let assignment = standing.assignment
        var model: QuestionPage
        switch next {
        case .done:
            let count = standing.current?.questionIds.count ?? assignment.questionIds.count
            model = QuestionPage(code: code, title: assignment.title, number: count, position: count, count: count, done: true)
        case .question(let view):
            let question = view.question
            model = QuestionPage(code: code, title: assignment.title, number: view.position + 1, position: view.position, count: view.count,
                                 questionHead: fragments.head(question, language: t.language),
                                 questionFields: fragments.fields(question, language: t.language),
                                 isSlide: question.kind == .slide ? true : nil, feedback: formError)
            if let deadline = view.deadline, let secondsLeft = view.secondsLeft {
                model.timed = true
                model.secondsLeft = secondsLeft
                model.timeLimit = Int(deadline.timeIntervalSince(view.shownAt).rounded())
                model.deadline = Int64((deadline.timeIntervalSince1970 * 1000).rounded())
            }
            if request.uri.queryParameters["late"] != nil {
                model.notice = t("Too late: the time limit had passed, so that answer scores nothing.")
            }
        }
        return pages.render("assignment-question", model, visit: context.visit,
                            title: t("Question {number}", ["number": t.number(model.number)]),
                            status: formError == nil ? .ok : .unprocessableContent)
    }

    func answer(_ context: PageContext, code: String, request: Request) async throws -> Response {
        let kept: Kept, standing: Assignments.Standing
        switch try await player(context, code: code, request: request) {
        case .success(let found): (kept, standing) = found
        case .failure(let exit): return exit.response
        }
        let t = context.visit.t
        let input = QuestionFragments.answer(from: context.form)
        let position = Int(context.form.text("position")) ?? -1
        let answered: Assignments.Answered
        do {
            answered = try await assignments.answer(input, position: position, kept.pass, assignmentId: kept.assignmentId)
        } catch .badAnswer(let problem) {
            return try await play(context, code: code, request: request, formError: QuestionFragments.message(problem, t: t))
        } catch .timeUp {
            return PageRenderer.redirect(to: "/a/\(code)/play?late=1")
        } catch .alreadyAnswered, .notShown {
            return PageRenderer.redirect(to: "/a/\(code)/play")
        } catch .noAttempt, .notOpen, .closed, .notResumable {
            return PageRenderer.redirect(to: "/a/\(code)")
        } catch {
            return AssignmentMessages.page(error, pages: pages, visit: context.visit)
        }
        guard let feedback = answered.feedback, feedback.question.kind != .slide else { return PageRenderer.redirect(to: "/a/\(code)/play") }
        // The verdict is this response itself: the use case gives it once, as the answer is taken.
        let question = feedback.question
        let given = try? input.answer()
        let verdictClass = !question.kind.hasRightAnswer ? "counted"
            : feedback.credit.isFull ? "right" : feedback.credit.isNone ? "wrong" : "partly"
        let points = Int((Double(feedback.marks) / Double(Marks.perPoint)).rounded())
        let tiles = QuestionFragments.answeredTiles(question, given: given, t: t)
        let model = QuestionPage(
            code: code, title: standing.assignment.title, number: position + 1, position: position, count: 0, answered: true, verdictClass: verdictClass,
            verdictIcon: QuestionFragments.VerdictIcon.of(verdictClass),
            verdictText: verdictClass == "counted" ? t("Thanks: your answer is counted. There is no wrong answer here.")
                : verdictClass == "partly" ? QuestionFragments.partly(feedback.credit, t: t) + " " + t.count(points, "+{count} point", "+{count} points")
                : verdictClass == "right" ? t.count(points, "Right! +{count} point", "Right! +{count} points") : t("Not quite."),
            given: RichText.html(given.flatMap { QuestionFragments.given(question, $0, t: t) }),
            correctAnswer: question.kind.hasRightAnswer ? RichText.html(QuestionFragments.correct(question, t: t)) as String : nil,
            explanation: RichText.html(question.explanation), answeredTiles: tiles,
            hasAnsweredTiles: tiles.map { $0.isEmpty ? nil : true } ?? nil, twoTiles: tiles?.count == 2 ? true : nil)
        var page = model
        page.questionHead = fragments.head(question, language: t.language)
        return pages.render("assignment-question", page, visit: context.visit, title: t("Question {number}", ["number": t.number(position + 1)]))
    }

    func finish(_ context: PageContext, code: String, request: Request) async throws -> Response {
        let kept: Kept
        switch try await player(context, code: code, request: request) {
        case .success(let found): kept = found.0
        case .failure(let exit): return exit.response
        }
        do {
            _ = try await assignments.finish(kept.pass, assignmentId: kept.assignmentId)
        } catch .noAttempt, .notOpen, .closed, .notResumable {
            return PageRenderer.redirect(to: "/a/\(code)")
        } catch {
            return AssignmentMessages.page(error, pages: pages, visit: context.visit)
        }
        return PageRenderer.redirect(to: "/a/\(code)/result")
    }
}
