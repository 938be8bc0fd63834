import Foundation
import QuizCore
import QuizStore

/// A player's own result: only once an attempt of theirs is over (finished, or cut off by the
/// close), and the right answers only when the settings show them by then.
extension Assignments {
    package struct Result: Sendable, Equatable {
        package var assignment: Assignment
        /// 0...1 by the assignment's grading rule over the attempts that are over.
        package var grade: Double?
        /// The attempts that are over, in order.
        package var attempts: [GradedAttempt]
        package var attemptsLeft: Int
        /// The attempt `lines` are of.
        package var number: Int
        /// Whether `lines` carry verdicts, credits and right answers.
        package var answersShown: Bool
        package var lines: [Line]
        /// Leaderboard points finishing added (only with the setting on, signed in).
        package var pointsAdded: Int64 = 0
    }

    package struct Line: Sendable, Equatable {
        package var position: Int
        /// In public ids; without its right answer unless `answersShown`.
        package var question: Question
        /// What the player answered, in public ids; nil when not answered.
        package var given: Answer?
        package var verdict: Verdict?
        package var credit: Credit?
        package var marks: Int?
    }

    /// The result of attempt `number` (the last one over when nil). Not while an attempt is being
    /// played: what an earlier one showed must not help answer it.
    package func result(_ pass: Pass, assignmentId: Int64? = nil, attempt number: Int? = nil) async throws(Failure) -> Result {
        let (player, assignment) = try await identify(pass, assignmentId: assignmentId)
        let now = time.now()
        return try await storing("reading a result") {
            let all = try await store.assignmentAttempts(playerId: player.id)
            let over = all.filter { assignment.isOver(finishedAt: $0.finishedAt, at: now) }
            guard over.count == all.count else { throw Failure.notFinished }
            guard let attempt = number == nil ? over.last : over.first(where: { $0.number == number }) else { throw Failure.notFinished }
            var graded: [GradedAttempt] = []
            var rows: [AssignmentAnswerRecord] = []
            for one in over {
                let answers = try await store.assignmentAnswers(attemptId: one.id)
                graded.append(Self.graded(one, answers: answers))
                if one.id == attempt.id { rows = answers }
            }
            let reveal = assignment.showsAnswers(attemptOver: true, at: now)
            let byPosition = Dictionary(rows.map { ($0.position, $0) }) { first, _ in first }
            var lines: [Line] = []
            for (position, id) in attempt.questionIds.enumerated() {
                guard let question = try await store.question(id: id) else { continue }
                let presented = presented(question, attempt: attempt, assignment: assignment)
                let row = byPosition[position]
                let given = row?.given.map { key.ids(for: question).presenting($0.answer) }
                let verdict = row.flatMap { $0.answer == nil ? nil : question.verdict(credit: $0.credit) }
                lines.append(Line(position: position, question: reveal ? presented : unrevealed(presented), given: given,
                                  verdict: reveal ? verdict : nil, credit: reveal ? row.map(\.credit) : nil, marks: reveal ? row?.marks : nil))
            }
            return Result(assignment: assignment, grade: assignment.settings.grading.grade(graded), attempts: graded,
                          attemptsLeft: max(0, assignment.settings.attemptsAllowed - all.count),
                          number: attempt.number, answersShown: reveal, lines: lines)
        }
    }

    /// An attempt as grading sees it. One cut off by the close took until its last answer.
    static func graded(_ attempt: AssignmentAttemptRecord, answers: [AssignmentAnswerRecord], decoded: StoredAnswers? = nil) -> GradedAttempt {
        let decoded = decoded ?? StoredAnswers(answers)
        var credits: [Int64: Credit] = [:]
        for answer in answers where answer.answer != nil { credits[answer.questionId] = decoded.credit(answer) }
        let end = attempt.finishedAt ?? answers.compactMap(\.answeredAt).max() ?? attempt.startedAt
        return GradedAttempt(number: attempt.number, marks: answers.reduce(0) { $0 + $1.marks }, maxMarks: attempt.maxMarks,
                             credits: credits, timeTaken: max(0, end.timeIntervalSince(attempt.startedAt)))
    }
}
