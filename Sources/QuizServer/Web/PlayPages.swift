import Foundation
import HTTPTypes
import Hummingbird
import QuizCore
import QuizText
import QuizStore
import QuizUseCases

/// The pages of playing a quiz: its page, the list of an attempt's questions, a question with its
/// clock and verdict, the result, the history of the play session, and the leaderboard. Each form
/// calls one use case (`PlayQuiz`) and renders or redirects on what it returns; a failure a page
/// has no words for (someone else's attempt, a question not in the quiz) is "not found".
struct PlayPages: Sendable {
    let pages: Pages
    let playQuiz: PlayQuiz
    let leaderboard: LeaderboardQuery

    var fragments: QuestionFragments { QuestionFragments(renderer: pages.renderer) }

    /// `playing` pages keep the play session (`PageMiddleware.play`); the leaderboard ends it.
    func register(signedIn: some RouterMethods<SignedInContext>, playing: some RouterMethods<SignedInContext>) {
        playing.get("/quizzes/:id") { _, context in try await quizPage(context, quizId: context.pathID("id")) }
        playing.post("/quizzes/:id/start", policy: .resendable, in: pages.routes) { _, context in try await start(quizId: context.pathID("id"), context) }
        playing.get("/play/:attempt") { _, context in try await attemptPage(context, attemptId: context.pathID("attempt")) }
        playing.get("/play/:attempt/questions/:question") { request, context in
            try await questionPage(context, attemptId: context.pathID("attempt"),
                                   questionId: context.pathID("question"),
                                   already: request.uri.queryParameters["already"] != nil)
        }
        playing.post("/play/:attempt/questions/:question", policy: .resendable, in: pages.routes) { _, context in
            try await answer(context, attemptId: context.pathID("attempt"),
                             questionId: context.pathID("question"))
        }
        playing.post("/play/:attempt/finish") { _, context in try await finish(context, attemptId: context.pathID("attempt")) }
        playing.get("/play/:attempt/result") { _, context in try await resultPage(context, attemptId: context.pathID("attempt")) }
        playing.get("/history") { request, context in try await historyPage(context, request: request) }
        signedIn.get("/leaderboard") { _, context in try await leaderboardPage(context) }
    }

    // MARK: Models

    struct QuizPage: Encodable {
        var id: Int64
        var title: String
        var description: String
        var questionCount: String
        var totalPoints: String
        var topicName: String
        var attemptId: Int64?
    }

    struct QuestionLine: Encodable {
        var id: Int64
        var attemptId: Int64
        var position: Int
        var text: String
        var status: String
        var statusLabel: String
    }

    struct AttemptPage: Encodable {
        var attemptId: Int64
        var quizTitle: String
        var questionCount: Int
        var answeredCount: Int
        var correctCount: Int
        var questions: [QuestionLine]
    }

    /// How everyone answered a poll or word cloud: bars with counts, or words sized by count.
    struct OpinionsModel: Encodable {
        struct Share: Encodable {
            var text: String
            var count: Int
            var total: Int
            var label: String
            /// 1–5, by the word's count against the most common one's.
            var size: Int
        }

        var title: String
        var poll: Bool?
        var words: Bool?
        var shares: [Share]
        var empty: String?

        init(_ opinions: Opinions, t: Texts) {
            let total = max(1, opinions.total)
            let most = max(1, opinions.shares.map(\.count).max() ?? 1)
            shares = opinions.shares.map { share in
                Share(text: share.text, count: share.count, total: total,
                      label: t.count(share.count, "{count} answer", "{count} answers"),
                      size: 1 + min(4, max(0, Int((4 * Double(share.count) / Double(most)).rounded(.down)))))
            }
            switch opinions {
            case .poll:
                poll = true
                title = t.count(opinions.total, "How everyone answered: {count} answer so far", "How everyone answered: {count} answers so far")
            case .words:
                words = true
                title = t("What everyone wrote, the most common largest")
                empty = shares.isEmpty ? t("No words yet.") : nil
            }
        }
    }

    struct QuestionPage: MustacheFields {
        var attemptId: Int64
        var id: Int64
        var quizTitle: String
        var position: Int
        var questionCount: Int
        var questionHead: PageHTML
        var feedback: String?
        var answered: Bool
        var verdictClass: String?
        var verdictText: String?
        /// The verdict's icon (an SVG path), so it is not told by colour alone.
        var verdictIcon: String?
        var given: String?
        var correctAnswer: String?
        var explanation: String?
        var questionFields: PageHTML?
        var timed: Bool?
        var secondsLeft: Int?
        /// The question's whole time, for the countdown's ring.
        var timeLimit: Int?
        /// Milliseconds since 1970, for the countdown script.
        var deadline: Int64?
        var nextId: Int64?
        var allAnswered: Bool?
        var answeredTiles: [QuestionFragments.AnsweredTile]?
        var hasAnsweredTiles: Bool?
        var twoTiles: Bool?
        /// "3 right in a row" after a right answer that continues a run.
        var streak: String?
        /// A slide: read, then Continue.
        var isSlide: Bool?
        /// A poll's or word cloud's answers so far.
        var opinions: OpinionsModel?

        func write(into values: inout [String: Any]) {
            values["attemptId"] = attemptId
            values["id"] = id
            values["quizTitle"] = quizTitle
            values["position"] = position
            values["questionCount"] = questionCount
            values["questionHead"] = questionHead.html
            values.set("feedback", feedback)
            values["answered"] = answered
            values.set("verdictClass", verdictClass)
            values.set("verdictText", verdictText)
            values.set("verdictIcon", verdictIcon)
            values.set("given", RichText.html(given))
            values.set("correctAnswer", RichText.html(correctAnswer))
            values.set("explanation", RichText.html(explanation))
            values.set("questionFields", questionFields?.html)
            values.set("timed", timed)
            values.set("secondsLeft", secondsLeft)
            values.set("timeLimit", timeLimit)
            values.set("deadline", deadline)
            values.set("nextId", nextId)
            values.set("allAnswered", allAnswered)
            values.set("answeredTiles", answeredTiles.map { $0.map { MustacheEncoder.encode($0) } as [Any] })
            values.set("hasAnsweredTiles", hasAnsweredTiles)
            values.set("twoTiles", twoTiles)
            values.set("streak", streak)
            values.set("isSlide", isSlide)
            if let opinions { values["opinions"] = MustacheEncoder.encode(opinions) }
        }
    }

    /// Numbers as the page's language writes them ("3,227", "3 227"), as the leaderboard does.
    struct ResultPage: Encodable {
        var quizTitle: String
        var correctCount: String
        var questionCount: String
        var points: String
        var pointsAdded: String
        var pointsNote: String?
        var totalPoints: String
        var userPoints: String
        var rank: String
        var timeTaken: String
        var moved: String?
        var percent: Int
        var summary: [SummaryLine]
    }

    /// One question of a finished attempt, opened on demand: what was answered and what was right.
    struct SummaryLine: Encodable {
        var position: Int
        var text: String
        var verdictClass: String
        var verdictText: String
        var yourAnswer: String?
        var rightAnswer: String?
        var pointsText: String
        var explanation: String?
    }

    struct HistoryLine: Encodable {
        var attemptId: Int64
        var questionId: Int64
        var questionText: String
        var quizTitle: String
        var verdictClass: String
        var verdictText: String
        var when: String
        var iso: String
        var picture: ManageQuestionPages.PictureModel?
    }

    struct HistoryPage: Encodable {
        var items: [HistoryLine]
        var backAttemptId: Int64?
    }

    struct BoardRow: Encodable {
        var rank: Int64
        var username: String
        var isMe: Bool
        var points: String
        var userUrl: String
        var medal: String?
    }

    struct LeaderboardPage: Encodable {
        var top: [BoardRow]
        /// The player's own row under the list, when they are not in it.
        var footer: BoardRow?
    }

    // MARK: Pages

    func quizPage(_ context: SignedInContext, quizId: Int64) async throws -> Response {
        let overview: PlayQuiz.Overview
        do {
            overview = try await playQuiz.overview(quizId: quizId, userId: context.user.id)
        } catch is PlayQuiz.Failure {
            throw HTTPError(.notFound)
        }
        let t = context.visit.t
        let quiz = overview.quiz
        let model = QuizPage(id: quiz.id, title: quiz.title, description: quiz.description,
                             questionCount: t.count(quiz.questionCount, "{count} question", "{count} questions"),
                             totalPoints: t.count(quiz.totalPoints, "{count} point", "{count} points"), topicName: overview.topicName,
                             attemptId: overview.unfinishedAttemptId)
        return pages.render("quiz", model, visit: context.visit, title: quiz.title, tab: "Quizzes")
    }

    func start(quizId: Int64, _ context: SignedInContext) async throws -> Response {
        let started: PlayQuiz.Started
        do {
            started = try await playQuiz.start(quizId: quizId, userId: context.user.id)
        } catch is PlayQuiz.Failure {
            throw HTTPError(.notFound)
        }
        let attemptId = started.attempt.id
        return PageRenderer.redirect(to: started.firstQuestionId.map { "/play/\(attemptId)/questions/\($0)" } ?? "/play/\(attemptId)")
    }

    func attemptPage(_ context: SignedInContext, attemptId: Int64) async throws -> Response {
        let progress: PlayQuiz.Progress
        do {
            progress = try await playQuiz.progress(attemptId: attemptId, userId: context.user.id)
        } catch PlayQuiz.Failure.attemptFinished {
            throw Redirect(location: "/play/\(attemptId)/result")
        } catch is PlayQuiz.Failure {
            throw HTTPError(.notFound)
        }
        let t = context.visit.t
        let lines = progress.lines.map { line in
            let status = line.answer.map { answer in
                line.question.kind.hasRightAnswer ? (answer.isCorrect ? "right" : "wrong") : "done"
            } ?? "unanswered"
            return QuestionLine(
                id: line.question.id ?? 0, attemptId: attemptId, position: line.position,
                text: line.hidden ? t("Question {number} (timed: its clock starts when you open it)", ["number": t.number(line.position)]) : line.question.text,
                status: status, statusLabel: ["right": t("Right"), "wrong": t("Wrong"), "unanswered": t("Unanswered"), "done": t("Done")][status] ?? status)
        }
        let attempt = progress.attempt
        let model = AttemptPage(attemptId: attemptId, quizTitle: progress.quiz.title, questionCount: lines.count,
                                answeredCount: attempt.answers.count, correctCount: attempt.correctCount, questions: lines)
        return pages.render("attempt", model, visit: context.visit, title: progress.quiz.title, tab: "Quizzes")
    }

    func questionPage(_ context: SignedInContext, attemptId: Int64, questionId: Int64, already: Bool,
                      formError: String? = nil) async throws -> Response {
        let view: PlayQuiz.QuestionView
        do {
            view = try await playQuiz.question(attemptId: attemptId, questionId: questionId, userId: context.user.id)
        } catch is PlayQuiz.Failure {
            throw HTTPError(.notFound)
        }
        let t = context.visit.t
        let question = view.question
        var model = QuestionPage(attemptId: attemptId, id: questionId, quizTitle: view.quiz.title, position: view.position,
                                 questionCount: view.questionCount, questionHead: fragments.head(question, language: context.visit.language), feedback: formError,
                                 answered: view.answered != nil, allAnswered: view.allAnswered ? true : nil)
        if let answered = view.answered {
            let judged = QuestionFragments.judged(question, correct: answered.isCorrect, given: view.given)
            model.verdictClass = already ? "already" : view.given?.late == true ? "wrong" : judged.verdictClass
            model.verdictIcon = QuestionFragments.VerdictIcon.of(model.verdictClass ?? "wrong")
            model.verdictText = already ? t("You already answered this question; your first answer counts.")
                : view.given?.late == true ? t("Too late: the time limit had passed, so this answer scores nothing.")
                : judged.verdictClass == "counted" ? t("Thanks: your answer is counted. There is no wrong answer here.")
                : judged.verdictClass == "partly"
                ? QuestionFragments.partly(judged.credit, t: t) + " " + t.count(answered.pointsAwarded, "+{count} point", "+{count} points")
                : answered.isCorrect ? t.count(answered.pointsAwarded, "Right! +{count} point", "Right! +{count} points") : t("Not quite.")
            model.given = view.given.flatMap { QuestionFragments.given(question, $0.answer, t: t) }
            model.answeredTiles = QuestionFragments.answeredTiles(question, given: view.given?.answer, t: t)
            model.hasAnsweredTiles = model.answeredTiles.map { $0.isEmpty ? nil : true } ?? nil
            model.twoTiles = (model.answeredTiles?.count ?? 0) == 2 ? true : nil
            // The run of right answers this answer ends, in the order they were given.
            if answered.isCorrect, !already {
                let run = Streak.ending(view.attempt.answers.sorted { $0.answeredAt < $1.answeredAt }.map(\.isCorrect))
                if run >= Streak.shownFrom { model.streak = t("{count} right in a row", ["count": t.number(run)]) }
            }
            model.correctAnswer = question.kind.hasRightAnswer ? QuestionFragments.correct(question, t: t) : nil
            model.explanation = question.explanation
            model.nextId = view.nextUnansweredId
            model.opinions = view.opinions.map { OpinionsModel($0, t: t) }
        } else if !view.attempt.isFinished {
            model.questionFields = fragments.fields(question, language: context.visit.language)
            model.isSlide = question.kind == .slide ? true : nil
            if let clock = view.clock {
                model.timed = true
                model.secondsLeft = clock.secondsLeft
                model.timeLimit = Int(clock.deadline.timeIntervalSince(clock.shownAt).rounded())
                model.deadline = Int64((clock.deadline.timeIntervalSince1970 * 1000).rounded())
            }
        }
        return pages.render("question", model, visit: context.visit, title: t("Question {number}", ["number": t.number(view.position)]), tab: "Quizzes",
                            status: formError == nil ? .ok : .unprocessableContent)
    }

    func answer(_ context: SignedInContext, attemptId: Int64, questionId: Int64) async throws -> Response {
        let path = "/play/\(attemptId)/questions/\(questionId)"
        let answer = QuestionFragments.answer(from: context.form)
        do {
            let answered = try await playQuiz.answer(answer, questionId: questionId, attemptId: attemptId, userId: context.user.id)
            if answered.question.kind == .slide {
                // A slide read: straight on to what comes next.
                let view = try await playQuiz.question(attemptId: attemptId, questionId: questionId, userId: context.user.id)
                return PageRenderer.redirect(to: view.nextUnansweredId.map { "/play/\(attemptId)/questions/\($0)" } ?? "/play/\(attemptId)")
            }
            return PageRenderer.redirect(to: answered.verdict == .alreadyAnswered ? path + "?already=1" : path)
        } catch PlayQuiz.Failure.badAnswer(let problem) {
            return try await questionPage(context, attemptId: attemptId, questionId: questionId, already: false,
                                          formError: QuestionFragments.message(problem, t: context.visit.t))
        } catch PlayQuiz.Failure.attemptFinished {
            throw Redirect(location: "/play/\(attemptId)/result")
        } catch PlayQuiz.Failure.notShown {
            // The question was never opened, so its clock never started: open it now.
            throw Redirect(location: path)
        } catch is PlayQuiz.Failure {
            throw HTTPError(.notFound)
        }
    }

    func finish(_ context: SignedInContext, attemptId: Int64) async throws -> Response {
        do {
            _ = try await playQuiz.finish(attemptId: attemptId, userId: context.user.id)
        } catch is PlayQuiz.Failure {
            throw HTTPError(.notFound)
        }
        return PageRenderer.redirect(to: "/play/\(attemptId)/result")
    }

    func resultPage(_ context: SignedInContext, attemptId: Int64) async throws -> Response {
        let result: PlayQuiz.Result
        do {
            result = try await playQuiz.result(attemptId: attemptId, userId: context.user.id)
        } catch PlayQuiz.Failure.notFinished {
            throw Redirect(location: "/play/\(attemptId)")
        } catch is PlayQuiz.Failure {
            throw HTTPError(.notFound)
        }
        let t = context.visit.t
        let score = result.score
        let seconds = Int((score.attempt.timeTaken ?? 0).rounded())
        let graded = result.gradedCount
        let model = ResultPage(
            quizTitle: result.quizTitle ?? t("Quiz"), correctCount: t.number(score.attempt.correctCount), questionCount: t.number(graded),
            points: t.number(score.attempt.points), pointsAdded: t.number(score.pointsAdded),
            pointsNote: score.pointsAdded >= score.attempt.points ? nil
                : score.pointsAdded == 0 ? t("You had already scored this much here: a quiz counts once, at your best.")
                : t("A quiz counts once, at your best: this beat your best by {points}.", ["points": t.number(score.pointsAdded)]),
            totalPoints: t.number(score.totalPoints), userPoints: t.number(score.userPoints), rank: t.number(score.rank),
            timeTaken: seconds >= 60 ? "\(seconds / 60) min \(seconds % 60) s" : "\(seconds) s",
            moved: result.placesMoved == 0 ? nil : t.count(Int(result.placesMoved), "Up {count} place", "Up {count} places"),
            percent: graded == 0 ? 0 : score.attempt.correctCount * 100 / graded,
            summary: result.questions.enumerated().map { index, entry in
                let given = entry.answer?.given.flatMap(GivenAnswer.init(stored:))
                let verdict = entry.answer.map { QuestionFragments.judged(entry.question, correct: $0.isCorrect, given: given).verdictClass }
                    ?? "unanswered"
                return SummaryLine(position: index + 1, text: RichText.html(entry.question.text), verdictClass: verdict,
                                   verdictText: ["right": t("Right"), "wrong": t("Wrong"), "partly": t("Partly right"), "counted": t("Done")][verdict]
                                       ?? t("Not answered"),
                                   yourAnswer: given.flatMap { QuestionFragments.given(entry.question, $0.answer, t: t) }.flatMap { $0.isEmpty ? nil : RichText.html($0) as String },
                                   rightAnswer: entry.question.kind.hasRightAnswer ? RichText.html(QuestionFragments.correct(entry.question, t: t)) : nil,
                                   pointsText: "+\(entry.answer?.pointsAwarded ?? 0)", explanation: RichText.html(entry.question.explanation))
            })
        return pages.render("result", model, visit: context.visit, title: t("Result"), tab: "Quizzes")
    }

    func historyPage(_ context: SignedInContext, request: Request) async throws -> Response {
        // The play session started when its cookie was set; a fresh visit starts it now.
        let started = request.cookie(PageMiddleware.playCookie).flatMap { Double($0) }.map(Date.init(timeIntervalSince1970:)) ?? pages.time.now()
        let t = context.visit.t
        let items = try await playQuiz.history(userId: context.user.id, since: started)
        let model = HistoryPage(items: items.map {
            HistoryLine(attemptId: $0.attemptId, questionId: $0.questionId, questionText: $0.questionText, quizTitle: $0.quizTitle,
                        verdictClass: $0.isCorrect ? "right" : "wrong", verdictText: $0.isCorrect ? t("Right") : t("Wrong"),
                        when: SocialPages.postDate($0.answeredAt, language: t.language).shown, iso: SocialPages.postDate($0.answeredAt).iso,
                        picture: $0.picture.map(ManageQuestionPages.PictureModel.init))
        }, backAttemptId: items.first?.attemptId)
        return pages.render("history", model, visit: context.visit, title: t("History"), tab: "Quizzes")
    }

    func leaderboardPage(_ context: SignedInContext) async throws -> Response {
        let t = context.visit.t
        let me = context.user
        let board = try await leaderboard(userId: me.id)
        func row(_ ranking: Ranking) -> BoardRow {
            BoardRow(rank: ranking.rank, username: ranking.username, isMe: ranking.username == me.username,
                     points: t.count(Int(ranking.points), "{count} point", "{count} points"), userUrl: "/users/\(Pages.encode(ranking.username))",
                     medal: ranking.rank <= 3 ? ["gold", "silver", "bronze"][Int(ranking.rank) - 1] : nil)
        }
        // Under the list only the player's own place: when they are in the list, its highlight says
        // where they are (a row for the last place confused players).
        let footer = board.footer.map(row).flatMap { $0.isMe ? $0 : nil }
        return pages.render("leaderboard", LeaderboardPage(top: board.top.map(row), footer: footer), visit: context.visit,
                            title: t("Leaderboard"), tab: "Leaderboard")
    }
}
