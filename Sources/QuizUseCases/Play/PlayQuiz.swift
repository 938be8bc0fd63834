import CoreMetrics
import Foundation
import QuizCore
import QuizStore

/// Playing a quiz: starting an attempt, its questions with their clocks, answering within the time
/// limit, finishing, the result and the history of what was answered. Practice rounds are played
/// through the same attempts.
package struct PlayQuiz: Sendable {
    package enum Failure: Error, Equatable {
        /// Not in the catalog: missing, a draft, or someone's practice round.
        case quizNotFound
        /// Missing, or someone else's: its existence is not theirs to learn.
        case attemptNotFound
        case questionNotInQuiz(questionId: Int64)
        case attemptFinished
        /// A timed question must be fetched (which starts its clock) before it is answered.
        case notShown
        case badAnswer(AnswerProblem)
        /// The result of an attempt still being played.
        case notFinished
    }

    package typealias Storage = CatalogStore & AttemptStore & PracticeStore & LeaderboardStore
    let store: any Storage
    let time: any TimeSource
    let metrics: ActivityMetrics
    /// Choices are shown under public ids, in orders of this key's (see `ChoiceKey`).
    let key: ChoiceKey
    let opinions = OpinionCache()

    package init(store: any Storage, time: any TimeSource, key: ChoiceKey, metrics: ActivityMetrics = .off) {
        self.store = store
        self.time = time
        self.key = key
        self.metrics = metrics
    }

    /// Allowance for network latency after a time limit.
    package static var grace: TimeInterval { NameAllGame.defaultGrace }
    /// The most history one page lists.
    package static var historyLimit: Int { 200 }

    // MARK: Starting

    /// A quiz of the catalog as its page shows it, with the player's unfinished attempt to go back to.
    package struct Overview: Sendable {
        package var quiz: QuizSummary
        package var topicName: String
        package var unfinishedAttemptId: Int64?
    }

    package func overview(quizId: Int64, userId: Int64) async throws -> Overview {
        let quiz = try await listedQuiz(id: quizId)
        let topicName = try await store.allQuizzes().first { $0.quiz.id == quizId }?.topicName ?? ""
        let unfinished = try await store.unfinishedAttempt(userId: userId, quizId: quizId)
        return Overview(quiz: quiz, topicName: topicName, unfinishedAttemptId: unfinished?.id)
    }

    package struct Started: Sendable {
        package var attempt: Attempt
        package var quiz: QuizSummary
        package var firstQuestionId: Int64?
    }

    package func start(quizId: Int64, userId: Int64) async throws -> Started {
        let quiz = try await listedQuiz(id: quizId)
        let attempt: Attempt
        do {
            attempt = try await store.startAttempt(userId: userId, quizId: quizId, at: time.now())
        } catch StoreError.notFound {
            throw Failure.quizNotFound  // unpublished a moment ago
        }
        return Started(attempt: attempt, quiz: quiz, firstQuestionId: try await store.questions(quizId: quizId).first?.id)
    }

    // MARK: Reading

    /// The attempt with its answers, and how many questions its quiz has.
    package func attempt(id: Int64, userId: Int64) async throws -> (attempt: Attempt, questionCount: Int) {
        guard let attempt = try await store.attempt(id: id, userId: userId) else { throw Failure.attemptNotFound }
        return (attempt, try await store.quiz(id: attempt.quizId)?.questionCount ?? 0)
    }

    /// One line of an attempt's list of questions.
    package struct Line: Sendable {
        package var question: Question
        package var position: Int
        /// A timed question whose clock has not started: its text waits until it is opened.
        package var hidden: Bool
        package var answer: AnsweredQuestion?
    }

    package struct Progress: Sendable {
        package var attempt: Attempt
        package var quiz: QuizSummary
        package var lines: [Line]
    }

    /// The attempt's questions and how each went. Throws `attemptFinished` for a finished attempt:
    /// its result is what is left to see.
    package func progress(attemptId: Int64, userId: Int64) async throws -> Progress {
        let (attempt, quiz, questions) = try await load(attemptId: attemptId, userId: userId)
        if attempt.isFinished { throw Failure.attemptFinished }
        let shown = quiz.timeLimitSeconds == nil ? nil : try await store.shownQuestions(attemptId: attemptId)
        var answers: [Int64: AnsweredQuestion] = [:]
        for answer in attempt.answers where answers[answer.questionId] == nil { answers[answer.questionId] = answer }
        let lines = questions.enumerated().map { index, question in
            let id = question.id ?? 0
            let seen = presented(question, answers[id], attemptId: attemptId)
            return Line(question: seen.question, position: index + 1, hidden: shown.map { !$0.contains(id) } ?? false, answer: seen.answer)
        }
        return Progress(attempt: attempt, quiz: quiz, lines: lines)
    }

    /// When a timed question was first shown, and when its time is up.
    package struct Clock: Sendable, Equatable {
        package var shownAt: Date
        package var deadline: Date
        /// Whole seconds left when the question was read.
        package var secondsLeft: Int
    }

    /// A question of an attempt as the player sees it.
    package struct QuestionView: Sendable {
        package var attempt: Attempt
        package var quiz: QuizSummary
        /// With its choices in this attempt's own order.
        package var question: Question
        package var position: Int
        package var questionCount: Int
        package var answered: AnsweredQuestion?
        /// What was answered, when it could be read.
        package var given: GivenAnswer?
        /// Set for a timed question of an unfinished attempt.
        package var clock: Clock?
        /// The next unanswered question after this one, going round.
        package var nextUnansweredId: Int64?
        /// Every question answered and the attempt not yet finished.
        package var allAnswered: Bool
        /// A poll's or word cloud's answers so far, once this one is answered.
        package var opinions: Opinions?
    }

    /// Reading an unanswered question of a timed quiz starts its clock; a finished attempt's
    /// clocks no longer matter and none starts.
    package func question(attemptId: Int64, questionId: Int64, userId: Int64) async throws -> QuestionView {
        let (attempt, quiz, questions) = try await load(attemptId: attemptId, userId: userId)
        guard let index = questions.firstIndex(where: { $0.id == questionId }) else { throw Failure.questionNotInQuiz(questionId: questionId) }
        let answered = attempt.answers.first { $0.questionId == questionId }
        var clock: Clock?
        if let limit = quiz.timeLimitSeconds, !attempt.isFinished {
            let now = time.now()
            // An answered question's clock was started before its answer: read it, start nothing.
            let shown = answered == nil
                ? try await store.markShown(attemptId: attemptId, questionId: questionId, at: now)
                : try await store.shownAt(attemptId: attemptId, questionId: questionId) ?? now
            let deadline = shown.addingTimeInterval(TimeInterval(limit))
            clock = Clock(shownAt: shown, deadline: deadline, secondsLeft: max(0, Int(deadline.timeIntervalSince(now).rounded(.down))))
        }
        let answeredIds = Set(attempt.answers.map(\.questionId))
        let next = questions.indices.lazy.map { questions[(index + 1 + $0) % questions.count] }
            .first { !answeredIds.contains($0.id ?? 0) && $0.id != questionId }
        let (question, shownAnswer) = presented(questions[index], answered, attemptId: attemptId)
        // Only after answering: how others answered must not sway the answer.
        let opinions = answered == nil ? nil : try await self.opinions.opinions(of: questions[index], store: store, now: time.now())
        return QuestionView(
            attempt: attempt, quiz: quiz, question: question, position: index + 1,
            questionCount: questions.count, answered: shownAnswer, given: shownAnswer?.given.flatMap(GivenAnswer.init(stored:)),
            clock: clock, nextUnansweredId: next?.id,
            allAnswered: !attempt.isFinished && questions.allSatisfy { answeredIds.contains($0.id ?? 0) }, opinions: opinions)
    }

    // MARK: Answering

    package struct Answered: Sendable {
        package var verdict: Verdict
        package var points: Int
        package var credit: Credit
        /// The question answered, for its correct answer (in public ids) and explanation.
        package var question: Question
    }

    /// Records an answer to a question of the attempt; after the quiz's time limit (and the grace)
    /// it is kept, marked late, and scores nothing. The first answer to a question stands.
    package func answer(_ answer: AnswerInput, questionId: Int64, attemptId: Int64, userId: Int64) async throws -> Answered {
        guard let quizId = try await store.attemptQuiz(id: attemptId, userId: userId),
              let quiz = try await store.quiz(id: quizId) else { throw Failure.attemptNotFound }
        guard let question = try await store.question(id: questionId, inQuiz: quizId) else {
            throw Failure.questionNotInQuiz(questionId: questionId)
        }
        let ids = key.ids(for: question)
        let graded: GradedAnswer
        do {
            graded = try GradedAnswer(answer, shownAs: ids, for: question)
        } catch {
            throw Failure.badAnswer(error)
        }
        let asShown = ids.presenting(question)
        let now = time.now()
        var late = false
        if let limit = quiz.timeLimitSeconds {
            guard let shown = try await store.shownAt(attemptId: attemptId, questionId: questionId) else { throw Failure.notShown }
            late = now > shown.addingTimeInterval(TimeInterval(limit) + Self.grace)
        }
        let correct = graded.isCorrect && !late
        let points = graded.points(of: question.points, late: late)
        let recorded: Bool
        do {
            recorded = try await store.recordAnswer(attemptId: attemptId, questionId: questionId, answer: graded.stored(late: late),
                                                    isCorrect: correct, points: points, at: now)
        } catch StoreError.attemptFinished {
            throw Failure.attemptFinished
        }
        guard recorded else { return Answered(verdict: .alreadyAnswered, points: 0, credit: .none, question: asShown) }
        metrics.quizAnswers.increment()
        return Answered(verdict: late ? .tooLate : graded.verdict, points: points, credit: late ? .none : graded.credit, question: asShown)
    }

    // MARK: Finishing

    /// Finishes the attempt and adds its points to the player's total, once.
    package func finish(attemptId: Int64, userId: Int64) async throws -> AttemptScore {
        do {
            return try await store.finishAttempt(id: attemptId, userId: userId, at: time.now())
        } catch StoreError.notFound {
            throw Failure.attemptNotFound
        }
    }

    package struct Result: Sendable {
        package var score: AttemptScore
        package var quizTitle: String?
        /// Places up the leaderboard this attempt's points moved the player (0 when none), against
        /// the board as it is now.
        package var placesMoved: Int64
        /// The quiz's questions in its order, each with the player's answer, for the summary (both
        /// in public ids).
        package var questions: [(question: Question, answer: AnsweredQuestion?)]

        /// The questions that can be right, what the score counts out of: polls, word clouds and
        /// slides are not.
        package var gradedCount: Int {
            questions.isEmpty ? score.questionCount : questions.count { $0.question.kind.hasRightAnswer }
        }
    }

    /// A finished attempt's score; `notFinished` while it is being played.
    package func result(attemptId: Int64, userId: Int64) async throws -> Result {
        guard let score = try await store.score(attemptId: attemptId, userId: userId) else {
            guard try await store.attemptQuiz(id: attemptId, userId: userId) != nil else { throw Failure.attemptNotFound }
            throw Failure.notFinished
        }
        // Before these points the player stood where their old total ranks, counting themselves
        // ahead now.
        let before = score.pointsAdded > 0
            ? try await store.rank(points: score.userPoints - Int64(score.pointsAdded)) - 1 : score.rank
        let answers = Dictionary(score.attempt.answers.map { ($0.questionId, $0) }) { first, _ in first }
        let questions = try await store.questions(quizId: score.attempt.quizId)
        return Result(score: score, quizTitle: try await store.quiz(id: score.attempt.quizId)?.title,
                      placesMoved: max(0, before - score.rank),
                      questions: questions.map { presented($0, answers[$0.id ?? 0], attemptId: attemptId) })
    }

    /// What the player answered since `since` (the start of their play session), newest first.
    package func history(userId: Int64, since: Date) async throws -> [HistoryItem] {
        try await store.history(userId: userId, since: since, limit: Self.historyLimit)
    }

    /// A question of an attempt as its player sees it, and their stored answer in the same ids.
    private func presented(_ question: Question, _ answer: AnsweredQuestion?, attemptId: Int64) -> (question: Question, answer: AnsweredQuestion?) {
        let ids = key.ids(for: question)
        var shownAnswer = answer
        shownAnswer?.given = ids.presenting(stored: answer?.given)
        return (ids.presenting(question, shuffledFor: attemptId), shownAnswer)
    }

    /// A quiz of the catalog: drafts are their authors', practice rounds their player's.
    private func listedQuiz(id: Int64) async throws -> QuizSummary {
        guard let quiz = try await store.quiz(id: id), quiz.isListed else { throw Failure.quizNotFound }
        return quiz
    }

    /// The attempt (someone else's is "not found"), its quiz and the quiz's questions.
    private func load(attemptId: Int64, userId: Int64) async throws -> (Attempt, QuizSummary, [Question]) {
        guard let attempt = try await store.attempt(id: attemptId, userId: userId),
              let quiz = try await store.quiz(id: attempt.quizId) else { throw Failure.attemptNotFound }
        return (attempt, quiz, try await store.questions(quizId: quiz.id))
    }
}
