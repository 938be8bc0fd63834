import Foundation
import QuizCore
import SQLKit

/// Assignment attempts and their answers: every write in one statement or one transaction, and
/// an answer acknowledged only once committed.
extension SQLStore {
    public func startAssignmentAttempt(playerId: Int64, questionIds: [Int64], maxMarks: Int, allowed: Int, at date: Date) async throws
        -> AssignmentAttemptRecord? {
        let order = try LiveJSON.encode(questionIds)
        return try await database.transaction { db in
            let attempts = try await Self.assignmentAttempts(where: "player_id = \(bind: playerId)", on: db)
            if let open = attempts.first(where: { $0.finishedAt == nil }) { return open }
            guard attempts.count < allowed, let player = try await db.raw("""
                SELECT assignment_id FROM assignment_players WHERE id = \(bind: playerId)
                """).first()?.int64("assignment_id") else { return nil }
            // Two starts at once on PostgreSQL: UNIQUE (player_id, number) lets one in, and the
            // other (which waited for it to commit) is given the attempt it made.
            guard let id = try await db.raw("""
                INSERT INTO assignment_attempts (assignment_id, player_id, number, question_ids, max_marks, started_at)
                VALUES (\(bind: player), \(bind: playerId), \(bind: attempts.count + 1), \(bind: order), \(bind: maxMarks), \(bind: date.millis))
                ON CONFLICT DO NOTHING RETURNING id
                """).first()?.int64("id") else {
                return try await Self.assignmentAttempts(where: "player_id = \(bind: playerId) AND number = \(bind: attempts.count + 1)", on: db).first
            }
            return AssignmentAttemptRecord(id: id, assignmentId: player, playerId: playerId, number: attempts.count + 1,
                                           questionIds: questionIds, maxMarks: maxMarks, startedAt: Date(millis: date.millis))
        }
    }

    public func assignmentAttempt(id: Int64) async throws -> AssignmentAttemptRecord? {
        try await database.read { db in try await Self.assignmentAttempts(where: "id = \(bind: id)", on: db).first }
    }

    public func assignmentAttempts(playerId: Int64) async throws -> [AssignmentAttemptRecord] {
        try await database.read { db in try await Self.assignmentAttempts(where: "player_id = \(bind: playerId)", on: db) }
    }

    public func assignmentAttempts(assignmentId: Int64) async throws -> [AssignmentAttemptRecord] {
        try await database.read { db in try await Self.assignmentAttempts(where: "assignment_id = \(bind: assignmentId)", on: db) }
    }

    static func assignmentAttempts(where condition: SQLQueryString, on db: any SQLDatabase) async throws -> [AssignmentAttemptRecord] {
        try await db.raw("""
            SELECT \(unsafeRaw: assignmentAttemptColumns) FROM assignment_attempts WHERE \(condition) ORDER BY player_id, number
            """).all().map { row in
            AssignmentAttemptRecord(id: try row.int64("id"), assignmentId: try row.int64("assignment_id"), playerId: try row.int64("player_id"),
                                    number: try row.int("number"), questionIds: try LiveJSON.decode([Int64].self, from: try row.string("question_ids")),
                                    maxMarks: try row.int("max_marks"), startedAt: try row.date("started_at"),
                                    finishedAt: try row.optionalDate("finished_at"))
        }
    }

    public func showAssignmentQuestion(attemptId: Int64, position: Int, questionId: Int64, at date: Date) async throws -> Date {
        try await assignmentWrites.show(.init(attemptId: attemptId, position: position, questionId: questionId, at: date.millis))
    }

    public func recordAssignmentAnswer(attemptId: Int64, position: Int, answer: String, correct: Bool, marks: Int, at date: Date) async throws
        -> AssignmentAnswerOutcome {
        try await assignmentWrites.answer(.init(attemptId: attemptId, position: position, answer: answer, correct: correct, marks: marks,
                                                at: date.millis))
    }

    public func finishAssignmentAttempt(id: Int64, at date: Date, pointsTo userId: Int64?) async throws -> Int64? {
        let dialect = database.dialect
        return try await database.transaction { db in
            // Only the request that flips finished_at adds points, so a second finish adds nothing.
            guard let row = try await db.raw("""
                UPDATE assignment_attempts SET finished_at = \(bind: date.millis) WHERE id = \(bind: id) AND finished_at IS NULL
                RETURNING player_id
                """).first() else { return nil }
            guard let userId else { return 0 }
            // Two finishes of one user take turns on PostgreSQL, so the second sees the first as the best.
            if dialect == .postgres { try await db.raw("SELECT id FROM users WHERE id = \(bind: userId) FOR UPDATE").run() }
            let points = try await db.raw("""
                SELECT t.id, CAST(COALESCE(SUM(a.marks), 0) AS BIGINT) AS marks FROM assignment_attempts t
                LEFT JOIN assignment_answers a ON a.attempt_id = t.id
                WHERE t.player_id = \(bind: try row.int64("player_id")) AND t.finished_at IS NOT NULL GROUP BY t.id
                """).all().map { (id: try $0.int64("id"), points: Self.wholePoints(try $0.int64("marks"))) }
            let mine = points.first { $0.id == id }?.points ?? 0
            let best = points.filter { $0.id != id }.map(\.points).max() ?? 0
            let earned = max(0, mine - best)
            if earned > 0 { _ = try await Self.addPoints(db, earned, userId: userId) }
            return earned
        }
    }

    /// Whole leaderboard points of thousandths (`Marks`), to the nearest.
    static func wholePoints(_ marks: Int64) -> Int64 {
        (marks + Int64(Marks.perPoint / 2)) / Int64(Marks.perPoint)
    }

    public func assignmentAnswers(attemptId: Int64) async throws -> [AssignmentAnswerRecord] {
        try await assignmentAnswers(where: "attempt_id = \(bind: attemptId)")
    }

    public func assignmentAnswers(assignmentId: Int64) async throws -> [AssignmentAnswerRecord] {
        try await assignmentAnswers(where: "attempt_id IN (SELECT id FROM assignment_attempts WHERE assignment_id = \(bind: assignmentId))")
    }

    private func assignmentAnswers(where condition: SQLQueryString) async throws -> [AssignmentAnswerRecord] {
        try await database.read { db in
            try await db.raw("""
                SELECT \(unsafeRaw: Self.assignmentAnswerColumns) FROM assignment_answers WHERE \(condition) ORDER BY attempt_id, position
                """).all().map { row in
                AssignmentAnswerRecord(attemptId: try row.int64("attempt_id"), position: try row.int("position"),
                                       questionId: try row.int64("question_id"), shownAt: try row.date("shown_at"),
                                       answer: try row.decode(column: "answer", as: String?.self), correct: try row.bool("correct"),
                                       marks: try row.int("marks"), answeredAt: try row.optionalDate("answered_at"))
            }
        }
    }
}
