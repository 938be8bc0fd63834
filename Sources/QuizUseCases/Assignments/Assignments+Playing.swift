import Foundation
import QuizCore
import QuizStore

/// Playing: an attempt started within the window and the attempts allowed, its questions one at
/// a time in the player's own order, each answer graded as solo play grades it and refused
/// outside the window or after the question's time.
extension Assignments {
    /// Where a player stands: their attempts and what is left.
    package struct Standing: Sendable, Equatable {
        package var assignment: Assignment
        package var nickname: String
        /// Signed in: their account.
        package var userId: Int64?
        package var window: Assignment.Window
        package var attempts: [AssignmentAttemptRecord]
        /// The attempt being played (not finished, not cut off by the close).
        package var current: AssignmentAttemptRecord?
        package var attemptsLeft: Int
    }

    package func standing(_ pass: Pass, assignmentId: Int64? = nil) async throws(Failure) -> Standing {
        let (player, assignment) = try await identify(pass, assignmentId: assignmentId)
        let now = time.now()
        let attempts = try await storing("reading attempts") { try await store.assignmentAttempts(playerId: player.id) }
        return Standing(assignment: assignment, nickname: player.nickname, userId: player.userId, window: assignment.window(at: now),
                        attempts: attempts,
                        current: attempts.last { !assignment.isOver(finishedAt: $0.finishedAt, at: now) },
                        attemptsLeft: max(0, assignment.settings.attemptsAllowed - attempts.count))
    }

    /// Starts an attempt, or gives back the one being played. The questions are in the player's
    /// own order when the assignment shuffles them, kept with the attempt so a reload shows the same.
    package func start(_ pass: Pass, assignmentId: Int64? = nil) async throws(Failure) -> AssignmentAttemptRecord {
        let (player, assignment) = try await identify(pass, assignmentId: assignmentId)
        try open(assignment)
        return try await storing("starting an attempt") {
            let questions = try await questions(of: assignment)
            let order = questions.compactMap(\.id)
            guard let attempt = try await store.startAssignmentAttempt(
                playerId: player.id, questionIds: assignment.settings.shuffleQuestions ? order.shuffled() : order,
                maxMarks: Assignment.maxMarks(of: questions), allowed: assignment.settings.attemptsAllowed, at: time.now()) else {
                throw Failure.noAttemptsLeft
            }
            return attempt
        }
    }

    /// A question as the player is shown it: in public ids, shuffled for this attempt when the
    /// assignment says so, with nothing that tells the right answer.
    package struct QuestionView: Sendable, Equatable {
        package var attemptId: Int64
        /// 0-based in the attempt's order.
        package var position: Int
        package var count: Int
        package var question: Question
        package var shownAt: Date
        /// With a time per question: when it is up, and whole seconds left now.
        package var deadline: Date?
        package var secondsLeft: Int?
    }

    package enum Next: Sendable, Equatable {
        case question(QuestionView)
        /// Every question answered (or its time up): the attempt is ready to finish.
        case done(attemptId: Int64)
    }

    /// The attempt's next question: the one shown and still open, else the first not yet shown
    /// (its clock starts now). Questions whose time ran out unanswered are passed.
    package func next(_ pass: Pass, assignmentId: Int64? = nil) async throws(Failure) -> Next {
        let (attempt, assignment, _) = try await current(pass, assignmentId: assignmentId)
        let now = time.now()
        return try await storing("showing a question") {
            let shown = Dictionary(try await store.assignmentAnswers(attemptId: attempt.id).map { ($0.position, $0) }) { first, _ in first }
            for (position, questionId) in attempt.questionIds.enumerated() {
                guard let question = try await store.question(id: questionId) else { continue }
                let seconds = assignment.settings.seconds(for: question)
                let shownAt: Date
                if let row = shown[position] {
                    if row.answer != nil || isLate(now, shownAt: row.shownAt, seconds: seconds) { continue }
                    shownAt = row.shownAt
                } else {
                    shownAt = try await store.showAssignmentQuestion(attemptId: attempt.id, position: position, questionId: questionId, at: now)
                }
                let deadline = seconds.map { shownAt.addingTimeInterval(TimeInterval($0)) }
                return .question(QuestionView(
                    attemptId: attempt.id, position: position, count: attempt.questionIds.count,
                    question: unrevealed(presented(question, attempt: attempt, assignment: assignment)), shownAt: shownAt,
                    deadline: deadline, secondsLeft: deadline.map { max(0, Int($0.timeIntervalSince(now).rounded(.down))) }))
            }
            return .done(attemptId: attempt.id)
        }
    }

    /// What answering gave back: always that it was taken; the verdict, the credit and the
    /// question with its right answer (in public ids) only when the settings show answers after
    /// each question.
    package struct Answered: Sendable, Equatable {
        package var position: Int
        package var feedback: Feedback?
    }

    package struct Feedback: Sendable, Equatable {
        package var verdict: Verdict
        package var credit: Credit
        /// Thousandths of a point (`Marks`).
        package var marks: Int
        package var question: Question
    }

    /// Takes the answer to the shown question at `position`, graded as solo play grades it.
    package func answer(_ input: AnswerInput, position: Int, _ pass: Pass, assignmentId: Int64? = nil) async throws(Failure) -> Answered {
        let (attempt, assignment, _) = try await current(pass, assignmentId: assignmentId)
        let now = time.now()
        guard attempt.questionIds.indices.contains(position) else { throw .notShown }
        let question = try await storing("reading a question") { try await store.question(id: attempt.questionIds[position]) }
        guard let question else { throw .notShown }
        // Only a clock needs when it was shown (its limit, speed points); without one the write
        // itself refuses a question not shown or answered already, and this read is saved.
        var shownAt: Date?
        if let seconds = assignment.settings.seconds(for: question) {
            let row = try await storing("reading an answer") {
                try await store.assignmentAnswers(attemptId: attempt.id).first { $0.position == position }
            }
            guard let row else { throw .notShown }
            guard row.answer == nil else { throw .alreadyAnswered }
            guard !isLate(now, shownAt: row.shownAt, seconds: seconds) else { throw .timeUp }
            shownAt = row.shownAt
        }
        let ids = key.ids(for: question)
        let graded: GradedAnswer
        do {
            graded = try GradedAnswer(input, shownAs: ids, for: question)
        } catch {
            // A form sent again after its answer was taken says so, not that it does not fit.
            let answered = try await storing("reading an answer") {
                try await store.assignmentAnswers(attemptId: attempt.id).contains { $0.position == position && $0.answer != nil }
            }
            throw answered ? .alreadyAnswered : .badAnswer(error)
        }
        let marks = assignment.marks(for: question, credit: graded.credit, elapsed: shownAt.map { now.timeIntervalSince($0) } ?? 0)
        let outcome = try await storing("storing an answer") {
            try await store.recordAssignmentAnswer(attemptId: attempt.id, position: position, answer: graded.stored(), correct: graded.isCorrect,
                                                   marks: marks, at: now)
        }
        switch outcome {
        case .recorded: break
        case .alreadyAnswered: throw .alreadyAnswered
        case .notShown: throw .notShown
        // Closed or finished since it was read.
        case .refused: throw assignment.window(at: now) == .open ? Failure.noAttempt : Failure.closed
        }
        guard assignment.showsAnswers(attemptOver: false, at: now) else { return Answered(position: position) }
        return Answered(position: position, feedback: Feedback(
            verdict: graded.verdict, credit: graded.credit, marks: marks,
            question: presented(question, attempt: attempt, assignment: assignment)))
    }

    /// Finishes the attempt being played; its result follows. With leaderboard points on, a
    /// signed-in player's total gains what this attempt beats their best one by.
    package func finish(_ pass: Pass, assignmentId: Int64? = nil) async throws(Failure) -> Result {
        let (attempt, assignment, userId) = try await current(pass, assignmentId: assignmentId)
        let earner = assignment.settings.leaderboardPoints ? userId : nil
        let added = try await storing("finishing an attempt") {
            try await store.finishAssignmentAttempt(id: attempt.id, at: time.now(), pointsTo: earner)
        }
        var result = try await result(pass, assignmentId: assignmentId, attempt: attempt.number)
        result.pointsAdded = added ?? 0
        return result
    }

    // MARK: Helpers

    /// The attempt being played, its assignment (which must be open now) and the player's account.
    private func current(_ pass: Pass, assignmentId: Int64?) async throws(Failure) -> (AssignmentAttemptRecord, Assignment, userId: Int64?) {
        let standing = try await standing(pass, assignmentId: assignmentId)
        try open(standing.assignment)
        guard let attempt = standing.current else { throw .noAttempt }
        return (attempt, standing.assignment, standing.userId)
    }

    private func open(_ assignment: Assignment) throws(Failure) {
        switch assignment.window(at: time.now()) {
        case .notOpen: throw .notOpen
        case .closed: throw .closed
        case .open: break
        }
    }

    private func isLate(_ now: Date, shownAt: Date, seconds: Int?) -> Bool {
        guard let seconds else { return false }
        return now > shownAt.addingTimeInterval(TimeInterval(seconds) + Self.grace)
    }

    /// In public ids, its choices in this attempt's own order when the assignment shuffles answers.
    func presented(_ question: Question, attempt: AssignmentAttemptRecord, assignment: Assignment) -> Question {
        key.ids(for: question).presenting(question, shuffledFor: assignment.settings.shuffleAnswers ? attempt.id : nil)
    }

    /// Without what tells the right answer, for the kinds whose body is the key: which choices
    /// are right and their fractions, a true-or-false's value, typed answers, a number, an
    /// estimate's value, an ordering's right order (items go in the order of their public ids).
    /// A matching's pairs and a gap fill's alternatives stay, shown as solo play shows them.
    func unrevealed(_ question: Question) -> Question {
        var copy = question
        copy.explanation = nil
        let hidden = question.body.choices.map { Choice(id: $0.id, text: $0.text, isCorrect: false) }
        switch question.body {
        case .singleChoice: copy.body = .singleChoice(hidden)
        case .multipleChoice: copy.body = .multipleChoice(hidden)
        case .trueFalse: copy.body = .trueFalse(false)
        case .typedAnswer: copy.body = .typedAnswer([])
        case .numeric(_, _, let unit, let units): copy.body = .numeric(value: 0, tolerance: 0, unit: unit, units: units)
        case .estimate(var estimate):
            (estimate.value, estimate.margin) = (estimate.minimum, 0)
            copy.body = .estimate(estimate)
        case .ordering(let ordering):
            let shown = ordering.shown
            copy.body = .ordering(Ordering(items: shown.map(\.text), ids: shown.map(\.id)))
        default: break
        }
        return copy
    }
}
