import Foundation
import HTTPTypes
import Hummingbird
import QuizCore
import QuizText
import QuizUseCases

/// A player's result: the grade by the assignment's rule, the attempt's points, each question
/// (its credit and the right answer only when the settings show them), the attempts left and a
/// "Try again" while the assignment is open.
extension AssignmentPlayPages {
    struct ResultLine: Encodable {
        var position: Int
        var text: String
        var verdictClass: String
        var verdictText: String
        var yourAnswer: String?
        var rightAnswer: String?
        var credit: String?
    }

    struct AttemptLine: Encodable {
        var number: Int
        var grade: String
        var counts: Bool
        var shown: Bool
    }

    struct ResultPage: Encodable {
        var code: String
        var title: String
        var nickname: String
        var rejoinCode: String?
        var grade: String
        var percent: Int
        var points: String
        var number: Int
        var attempts: [AttemptLine]
        var severalAttempts: Bool
        var gradingRule: String?
        var attemptsLeft: String?
        var canTryAgain: Bool
        var closed: Bool
        var closesAt: AssignmentPages.When
        var answersShown: Bool
        var answersLater: String?
        var pointsAdded: String?
        var lines: [ResultLine]
    }

    func result(_ context: PageContext, code: String, request: Request, attempt: Int?) async throws -> Response {
        let kept: Kept, standing: Assignments.Standing
        switch try await player(context, code: code, request: request) {
        case .success(let found): (kept, standing) = found
        case .failure(let exit): return exit.response
        }
        let result: Assignments.Result
        do {
            result = try await assignments.result(kept.pass, assignmentId: kept.assignmentId, attempt: attempt)
        } catch .notFinished {
            return PageRenderer.redirect(to: "/a/\(code)")
        } catch {
            return AssignmentMessages.page(error, pages: pages, visit: context.visit)
        }
        let t = context.visit.t
        let assignment = result.assignment
        let settings = assignment.settings
        let shown = result.attempts.first { $0.number == result.number }
        let chosen = settings.grading.chosen(result.attempts)
        let marks = shown.map { (Double($0.marks), Double($0.maxMarks)) } ?? (0, 0)
        let model = ResultPage(
            code: code, title: assignment.title, nickname: standing.nickname, rejoinCode: standing.userId == nil ? kept.rejoin : nil,
            grade: result.grade.map { AssignmentPages.percent($0, t: t) } ?? "—", percent: Int(((result.grade ?? 0) * 100).rounded()),
            points: t("{points} of {total} points", ["points": Self.points(marks.0, t: t), "total": Self.points(marks.1, t: t)]),
            number: result.number,
            attempts: result.attempts.enumerated().map { index, attempt in
                AttemptLine(number: attempt.number, grade: AssignmentPages.percent(attempt.grade, t: t),
                            counts: chosen == nil || chosen == index, shown: attempt.number == result.number)
            },
            severalAttempts: settings.attemptsAllowed > 1,
            gradingRule: settings.attemptsAllowed > 1 ? AssignmentPages.gradingName(settings.grading, t) : nil,
            attemptsLeft: settings.attemptsAllowed > 1 ? t.count(result.attemptsLeft, "{count} attempt left", "{count} attempts left") : nil,
            canTryAgain: result.attemptsLeft > 0 && standing.window == .open, closed: standing.window == .closed,
            closesAt: .init(assignment.closesAt, t: t), answersShown: result.answersShown,
            answersLater: result.answersShown ? nil : t("The right answers are shown once the assignment closes."),
            pointsAdded: result.pointsAdded > 0 ? t.count(Int(result.pointsAdded), "+{count} leaderboard point", "+{count} leaderboard points") : nil,
            lines: result.lines.map { line(for: $0, shown: result.answersShown, t: t) })
        return pages.render("assignment-result", model, visit: context.visit, title: t("Result: {title}", ["title": assignment.title]))
    }

    private func line(for line: Assignments.Line, shown: Bool, t: Texts) -> ResultLine {
        let question = line.question
        let graded = question.kind.hasRightAnswer
        let verdictClass: String
        let verdictText: String
        if line.given == nil {
            (verdictClass, verdictText) = ("unanswered", t("Not answered"))
        } else if !shown {
            (verdictClass, verdictText) = ("done", t("Answered"))
        } else if !graded {
            (verdictClass, verdictText) = ("counted", t("Done"))
        } else {
            let credit = line.credit ?? Credit.none
            (verdictClass, verdictText) = credit.isFull ? ("right", t("Right")) : credit.isNone ? ("wrong", t("Wrong")) : ("partly", t("Partly right"))
        }
        return ResultLine(
            position: line.position + 1, text: RichText.html(question.text), verdictClass: verdictClass, verdictText: verdictText,
            yourAnswer: RichText.html(line.given.flatMap { QuestionFragments.given(question, $0, t: t) }.flatMap { $0.isEmpty ? nil : $0 }),
            rightAnswer: shown && graded ? RichText.html(QuestionFragments.correct(question, t: t)) as String : nil,
            credit: shown && graded && line.given != nil ? line.credit.map { AssignmentPages.percent($0.value, t: t) } : nil)
    }

    /// Points from thousandths: whole when whole, else with one decimal.
    static func points(_ marks: Double, t: Texts) -> String {
        let points = marks / Double(Marks.perPoint)
        return points == points.rounded() ? t.number(Int(points)) : t.decimal(points, digits: 1)
    }
}
