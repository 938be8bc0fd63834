import Foundation
import Hummingbird
import QuizCore
import QuizFormats
import QuizText
import QuizUseCases

/// An assignment's own page: what players need to join (the code, the link, its QR code), the
/// window and its buttons, and the report, which fills up as players go (the page's script reads
/// the page again every few seconds while it is open).
extension AssignmentPages {
    struct CreditCell: Encodable {
        var text: String
        var level: String
    }

    struct PlayerLine: Encodable {
        var nickname: String
        var signedIn: Bool
        var state: String
        var stateLabel: String
        var attempts: String
        var grade: String
        var time: String
        var progress: String?
        var cells: [CreditCell]
    }

    struct WrongLine: Encodable {
        var answer: String
        var count: String
    }

    struct QuestionLine: Encodable {
        var position: Int
        var text: String
        var answered: String
        var right: String?
        var partly: String?
        var wrong: [WrongLine]
        var noRightAnswer: Bool
    }

    struct AssignmentPage: Encodable {
        var id: Int64
        var title: String
        var quizTitle: String?
        var code: String
        var link: String
        var qrSVG: PageHTML
        var state: String
        var stateLabel: String
        var opensAt: When
        var closesAt: When
        var notOpen: Bool
        var closed: Bool
        var settings: [String]
        var closeDefault: String
        var closeError: String?
        var moved: String?
        var players: [PlayerLine]
        var questionNumbers: [Int]
        var questions: [QuestionLine]
        var reteach: [QuestionLine]
    }

    func assignmentPage(_ context: SignedInContext, id: Int64, request: Request, closeError: String? = nil) async throws -> Response {
        let t = context.visit.t
        let report = try await ownedReport(context, id: id)
        let assignment = report.assignment
        let now = pages.time.now()
        let window = assignment.window(at: now)
        let config = pages.config
        let base = config.publicURL.isEmpty ? request.head.authority.map { "http://\($0)" } ?? "" : config.publicURL
        let link = base + "/a/" + assignment.code
        let questionRows = zip(report.questions, report.questionRows).enumerated().map { index, pair in
            questionLine(position: index + 1, question: pair.0, row: pair.1, t: t)
        }
        // To teach again first: the questions the fewest got right, of those answered at all.
        let shares = zip(report.questions, report.questionRows).enumerated().compactMap { index, pair -> (Int, Double)? in
            let (question, row) = pair
            guard question.kind.hasRightAnswer, row.answered > 0, row.right < row.answered else { return nil }
            return (index, Double(row.right) / Double(row.answered))
        }
        let reteach = shares.sorted { ($0.1, $0.0) < ($1.1, $1.0) }.prefix(3).map { questionRows[$0.0] }
        let moved = request.uri.queryParameters["moved"].map(String.init)
        let quizTitle = try? await catalog.quiz(id: assignment.quizId).title
        let model = AssignmentPage(
            id: id, title: assignment.title, quizTitle: quizTitle, code: assignment.code,
            link: link, qrSVG: PageHTML(qrCode(link)), state: Self.stateClass(window), stateLabel: Self.stateName(window, t),
            opensAt: When(assignment.opensAt, t: t), closesAt: When(assignment.closesAt, t: t), notOpen: window == .notOpen,
            closed: window == .closed, settings: Self.settingLines(assignment.settings, t: t),
            closeDefault: LocalDateTime.utcValue(max(now, assignment.closesAt).addingTimeInterval(86_400)), closeError: closeError,
            moved: moved == "closed" ? t("Closed: no more answers are taken.") : moved == "extended" ? t("The close is moved.") : nil,
            players: report.players.map { playerLine($0, questions: report.questions, t: t) },
            questionNumbers: report.questions.indices.map { $0 + 1 },
            questions: questionRows, reteach: Array(reteach))
        return pages.render("assignment", model, visit: context.visit, title: assignment.title, tab: "Quizzes",
                            status: closeError == nil ? .ok : .unprocessableContent)
    }

    private func playerLine(_ row: Assignments.PlayerRow, questions: [Question], t: Texts) -> PlayerLine {
        let stateLabel = switch row.state {
        case .joined: t("Joined")
        case .playing: t("Playing")
        case .finished: t("Finished")
        }
        return PlayerLine(
            nickname: row.nickname, signedIn: row.userId != nil, state: row.state.rawValue, stateLabel: stateLabel,
            attempts: t.number(row.attempts), grade: row.grade.map { Self.percent($0, t: t) } ?? "—",
            time: row.timeTaken.map { Self.duration($0, t: t) } ?? "—",
            progress: row.answeredNow.map { t.count($0, "{count} answered so far", "{count} answered so far") },
            cells: questions.map { question in
                guard row.grade != nil, question.kind.hasRightAnswer else { return CreditCell(text: "—", level: "none") }
                let credit = row.credits[question.id ?? 0] ?? Credit.none
                return CreditCell(text: Self.percent(credit.value, t: t), level: credit.isFull ? "right" : credit.isNone ? "wrong" : "partly")
            })
    }

    private func questionLine(position: Int, question: Question, row: Assignments.QuestionRow, t: Texts) -> QuestionLine {
        let graded = question.kind.hasRightAnswer
        return QuestionLine(
            position: position, text: RichText.plain(question.text),
            answered: t.count(row.answered, "{count} answer", "{count} answers"),
            right: graded ? t("{right} of {answered} right", ["right": t.number(row.right), "answered": t.number(row.answered)]) : nil,
            partly: graded && row.partlyRight > 0 ? t.count(row.partlyRight, "{count} partly right", "{count} partly right") : nil,
            wrong: row.commonWrongAnswers.map { WrongLine(answer: $0.answer, count: t.count($0.count, "{count} time", "{count} times")) },
            noRightAnswer: !graded)
    }

    static func percent(_ value: Double, t: Texts) -> String {
        t("{percent} %", ["percent": t.decimal(value * 100, digits: value * 100 == (value * 100).rounded() ? 0 : 1)])
    }

    static func duration(_ seconds: TimeInterval, t: Texts) -> String {
        let whole = Int(seconds.rounded())
        return whole >= 60 ? t("{minutes} min {seconds} s", ["minutes": t.number(whole / 60), "seconds": t.number(whole % 60)])
            : t("{seconds} s", ["seconds": t.number(whole)])
    }

    /// The settings in words, one line each.
    static func settingLines(_ settings: AssignmentSettings, t: Texts) -> [String] {
        var lines = [t.count(settings.attemptsAllowed, "{count} attempt allowed", "{count} attempts allowed")]
        if settings.attemptsAllowed > 1 { lines.append(t("Graded by: {rule}", ["rule": gradingName(settings.grading, t)])) }
        lines.append(t("Time per question: {timing}", ["timing": timingName(settings.timing, t)]))
        lines.append(settings.speedPoints ? t("Faster answers score more") : t("Accuracy only: no speed points"))
        if settings.shuffleQuestions { lines.append(t("Questions shuffled for each player")) }
        if settings.shuffleAnswers { lines.append(t("Answers shuffled for each player")) }
        lines.append(t("Right answers shown: {when}", ["when": answersShownName(settings.answersShown, t).lowercased()]))
        lines.append(settings.leaderboardPoints ? t("Signed-in players earn leaderboard points") : t("No leaderboard points"))
        return lines
    }
}
