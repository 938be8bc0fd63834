import Foundation
import QuizCore
import PostgresNIO
import SQLKit

extension SQLStore: AttemptStore {
    public func startAttempt(userId: Int64, quizId: Int64, at date: Date) async throws -> Attempt {
        try await database.transaction { db in
            // A practice round is played through the attempt it was drawn with, never started again.
            guard try await db.raw("""
                SELECT id FROM quizzes WHERE id = \(bind: quizId) AND published AND practice_user_id IS NULL
                """).first() != nil else {
                throw StoreError.notFound
            }
            guard let id = try await db.raw("""
                INSERT INTO attempts (user_id, quiz_id, started_at) VALUES (\(bind: userId), \(bind: quizId), \(bind: date.millis))
                RETURNING id
                """).first()?.int64("id") else { throw StoreError.notFound }
            return Attempt(id: id, userId: userId, quizId: quizId, startedAt: Date(millis: date.millis))
        }
    }

    public func attempt(id: Int64, userId: Int64) async throws -> Attempt? {
        try await database.read { db in try await Self.loadAttempt(db, id: id, userId: userId) }
    }

    /// Anyone's attempt, for a cache that checks the owner itself.
    func anyonesAttempt(id: Int64) async throws -> Attempt? {
        try await database.read { db in try await Self.loadAttempt(db, id: id, userId: nil) }
    }

    public func unfinishedAttempt(userId: Int64, quizId: Int64) async throws -> Attempt? {
        try await database.read { db in
            guard let id = try await db.raw("""
                SELECT id FROM attempts WHERE user_id = \(bind: userId) AND quiz_id = \(bind: quizId) AND finished_at IS NULL
                ORDER BY id DESC LIMIT 1
                """).first()?.int64("id") else { return nil }
            return try await Self.loadAttempt(db, id: id, userId: userId)
        }
    }

    public func history(userId: Int64, since date: Date, limit: Int) async throws -> [HistoryItem] {
        try await database.read { db in
            try await db.raw("""
                SELECT a.attempt_id, a.question_id, a.correct, a.answered_at, x.text, q.title,
                  x.picture_hash, x.picture_type, x.picture_alt, x.picture_width, x.picture_height
                FROM attempts t JOIN answers a ON a.attempt_id = t.id
                JOIN questions x ON x.id = a.question_id JOIN quizzes q ON q.id = t.quiz_id
                WHERE t.user_id = \(bind: userId) AND a.answered_at >= \(bind: date.millis)
                ORDER BY a.answered_at DESC, a.attempt_id DESC LIMIT \(bind: limit)
                """).all().map {
                HistoryItem(attemptId: try $0.int64("attempt_id"), questionId: try $0.int64("question_id"),
                            questionText: try $0.string("text"), quizTitle: try $0.string("title"),
                            isCorrect: try $0.bool("correct"), answeredAt: try $0.date("answered_at"),
                            picture: try QuestionBodyRecord.decodePicture($0))
            }
        }
    }

    public func attemptQuiz(id: Int64, userId: Int64) async throws -> Int64? {
        try await attemptOwner(id: id)?.quizId(ifOwnedBy: userId)
    }

    /// Who owns an attempt and which quiz it plays: neither ever changes.
    func attemptOwner(id: Int64) async throws -> AttemptOwner? {
        try await database.read { db in
            try await AttemptOwnerStatement(id: id).rows(on: db).first.map {
                AttemptOwner(userId: try $0.int64("user_id"), quizId: try $0.int64("quiz_id"))
            }
        }
    }

    struct AttemptOwner: Sendable {
        var userId: Int64
        var quizId: Int64

        /// The quiz, when `userId` owns the attempt.
        func quizId(ifOwnedBy userId: Int64) -> Int64? { self.userId == userId ? quizId : nil }
    }

    /// The attempt and its answers in one query (the answer columns are NULL when there are none).
    /// A nil `userId` loads anyone's attempt (for the cache, which checks the owner itself).
    static func loadAttempt(_ db: any SQLDatabase, id: Int64, userId: Int64?) async throws -> Attempt? {
        let rows = try await AttemptWithAnswersStatement(id: id).rows(on: db)
        guard let first = rows.first else { return nil }
        if let userId, try first.int64("user_id") != userId { return nil }
        let answers = try rows.compactMap { row -> AnsweredQuestion? in
            guard let questionId = try row.decode(column: "question_id", as: Int64?.self) else { return nil }
            return AnsweredQuestion(questionId: questionId, isCorrect: try row.bool("correct"),
                                    pointsAwarded: try row.int("points"), answeredAt: try row.date("answered_at"),
                                    given: try row.string("answer"))
        }
        return Attempt(id: try first.int64("id"), userId: try first.int64("user_id"), quizId: try first.int64("quiz_id"),
                       startedAt: try first.date("started_at"), finishedAt: try first.optionalDate("finished_at"),
                       answers: answers)
    }

    public func recordAnswer(
        attemptId: Int64, questionId: Int64, answer: String, isCorrect: Bool, points: Int, at date: Date
    ) async throws -> Bool {
        try await answers.record(.init(
            attemptId: attemptId, questionId: questionId, answer: answer, isCorrect: isCorrect, points: points,
            answeredAt: date.millis
        ))
    }

    public func finishAttempt(id: Int64, userId: Int64, at date: Date) async throws -> AttemptScore {
        let dialect = database.dialect
        return try await database.transaction { db in
            guard try await Self.loadAttempt(db, id: id, userId: userId) != nil else { throw StoreError.notFound }
            // Only the request that flips finished_at adds the points, so a second finish adds nothing.
            let flipped = try await db.raw("""
                UPDATE attempts SET finished_at = \(bind: date.millis) WHERE id = \(bind: id) AND finished_at IS NULL
                RETURNING id
                """).first() != nil
            if flipped {
                // The quiz's size and worth as played, so editing it later leaves this score alone.
                try await db.raw("""
                    UPDATE attempts SET
                      question_count = (\(unsafeRaw: Self.gradedCount("attempts.quiz_id"))),
                      total_points = (\(unsafeRaw: Self.gradedPoints("attempts.quiz_id")))
                    WHERE id = \(bind: id)
                    """).run()
            }
            guard var attempt = try await Self.loadAttempt(db, id: id, userId: userId) else { throw StoreError.notFound }
            attempt.finishedAt = attempt.finishedAt ?? Date(millis: date.millis)
            let earned: Int64
            if flipped {
                // Two finishes of the same player take turns on PostgreSQL, so the second sees the
                // first's score as the best to beat (SQLite has one writer already).
                if dialect == .postgres { try await db.raw("SELECT id FROM users WHERE id = \(bind: userId) FOR UPDATE").run() }
                earned = try await Self.pointsToAdd(db, attempt: attempt)
                try await db.raw("UPDATE attempts SET points_added = \(bind: earned) WHERE id = \(bind: id)").run()
            } else {
                earned = 0
            }
            var userPoints = try await db.raw("SELECT points FROM users WHERE id = \(bind: userId)").first()?.int64("points") ?? 0
            if flipped && earned != 0 {
                guard let new = try await Self.addPoints(db, earned, userId: userId) else { throw StoreError.notFound }
                userPoints = new
            }
            return try await Self.score(db, attempt: attempt, userPoints: userPoints, newlyFinished: flipped)
        }
    }

    public func answerCounts(questionId: Int64, limit: Int) async throws -> [(answer: String, count: Int)] {
        try await database.read { db in
            try await db.raw("""
                SELECT answer, COUNT(*) AS n FROM answers WHERE question_id = \(bind: questionId)
                GROUP BY answer ORDER BY n DESC, answer LIMIT \(bind: limit)
                """).all().map { (answer: try $0.string("answer"), count: try $0.int("n")) }
        }
    }

    public func score(attemptId: Int64, userId: Int64) async throws -> AttemptScore? {
        try await database.read { db in
            guard let attempt = try await Self.loadAttempt(db, id: attemptId, userId: userId), attempt.isFinished,
                  let points = try await db.raw("SELECT points FROM users WHERE id = \(bind: userId)").first()?.int64("points")
            else { return nil }
            return try await Self.score(db, attempt: attempt, userPoints: points, newlyFinished: false)
        }
    }

    /// What a newly finished attempt adds: a quiz's points count once, at its best, so a replay adds
    /// what it beats the player's best earlier score of that quiz by. A practice round (a quiz of
    /// its own each time) adds the points of questions never scored before in practice.
    static func pointsToAdd(_ db: any SQLDatabase, attempt: Attempt) async throws -> Int64 {
        let practice = try await db.raw("SELECT practice_user_id FROM quizzes WHERE id = \(bind: attempt.quizId)").first()?
            .decode(column: "practice_user_id", as: Int64?.self) != nil
        if practice {
            return try await db.raw("""
                SELECT CAST(COALESCE(SUM(a.points), 0) AS BIGINT) AS added FROM answers a
                WHERE a.attempt_id = \(bind: attempt.id) AND a.points > 0 AND NOT EXISTS (
                  SELECT 1 FROM answers b JOIN attempts t ON t.id = b.attempt_id JOIN quizzes z ON z.id = t.quiz_id
                  WHERE t.user_id = \(bind: attempt.userId) AND z.practice_user_id IS NOT NULL AND t.finished_at IS NOT NULL
                    AND t.id <> \(bind: attempt.id) AND b.question_id = a.question_id AND b.points > 0)
                """).first()?.int64("added") ?? 0
        }
        let best = try await db.raw("""
            SELECT CAST(COALESCE(MAX(s.total), 0) AS BIGINT) AS best FROM (
              SELECT SUM(a.points) AS total FROM attempts t JOIN answers a ON a.attempt_id = t.id
              WHERE t.user_id = \(bind: attempt.userId) AND t.quiz_id = \(bind: attempt.quizId) AND t.finished_at IS NOT NULL
                AND t.id <> \(bind: attempt.id)
              GROUP BY t.id) s
            """).first()?.int64("best") ?? 0
        return max(0, Int64(attempt.points) - best)
    }

    /// How many of a quiz's questions can be right, what a score is out of: polls, word clouds and
    /// slides are not (`QuestionKind.hasRightAnswer`).
    static func gradedCount(_ quiz: String) -> String {
        "SELECT COUNT(*) FROM quiz_questions qq JOIN questions x ON x.id = qq.question_id WHERE qq.quiz_id = \(quiz) AND \(graded)"
    }

    /// The points a quiz's questions that can be right are worth.
    static func gradedPoints(_ quiz: String) -> String {
        "SELECT COALESCE(SUM(x.points), 0) FROM quiz_questions qq JOIN questions x ON x.id = qq.question_id WHERE qq.quiz_id = \(quiz) AND \(graded)"
    }

    private static let graded = "x.kind NOT IN (" + QuestionKind.allCases.filter { !$0.hasRightAnswer }.map { "'\($0.rawValue)'" }.joined(separator: ", ") + ")"

    static func score(_ db: any SQLDatabase, attempt: Attempt, userPoints: Int64, newlyFinished: Bool) async throws -> AttemptScore {
        // Finished attempts read the totals frozen at finishing (NULL only for ones finished before version 3).
        let totals = try await db.raw("""
            SELECT a.points_added,
              COALESCE(a.question_count, (\(unsafeRaw: Self.gradedCount("a.quiz_id")))) AS n,
              COALESCE(a.total_points, (\(unsafeRaw: Self.gradedPoints("a.quiz_id")))) AS total
            FROM attempts a WHERE a.id = \(bind: attempt.id)
            """).first()
        return AttemptScore(
            attempt: attempt, questionCount: try totals?.int("n") ?? 0, totalPoints: try totals?.int("total") ?? 0,
            userPoints: userPoints, rank: try await rank(db, points: userPoints), newlyFinished: newlyFinished,
            pointsAdded: try totals?.decode(column: "points_added", as: Int?.self)
        )
    }
}

extension SQLStore: LeaderboardStore {
    /// How many users hold each total: the snapshot a cache ranks anyone against.
    func pointsDistribution() async throws -> PointsDistribution {
        try await database.read { db in
            let buckets = try await db.raw("SELECT points, users FROM point_buckets").all()
                .map { (points: try $0.int64("points"), users: try $0.int64("users")) }
            return PointsDistribution(buckets: buckets)
        }
    }

    /// The top `limit` rows of the board and the last-placed user, the same for every caller.
    func leaderboardEnds(limit: Int) async throws -> LeaderboardEnds {
        try await database.read { db in
            let top = try await db.raw("""
                SELECT username, points FROM users ORDER BY points DESC, username_key ASC LIMIT \(bind: limit)
                """).all().map { (username: try $0.string("username"), points: try $0.int64("points")) }
            let last = try await db.raw("""
                SELECT username, points FROM users ORDER BY points ASC, username_key DESC LIMIT 1
                """).first().map { (username: try $0.string("username"), points: try $0.int64("points")) }
            return LeaderboardEnds(top: top, last: last)
        }
    }

    /// One aggregate over the buckets, which beats reading all of them when nothing is kept.
    public func rank(points: Int64) async throws -> Int64 {
        try await database.read { db in try await Self.rank(db, points: points) }
    }

    /// The board in two statements: the rows the board shows and the user count, then how many
    /// users are ahead of the caller and of the last-placed user (a few rows per level of
    /// `point_ranges`). Reading the whole points distribution is what a cached snapshot amortises
    /// (`CachedStore`); each extra query is a round trip to PostgreSQL.
    public func leaderboard(userId: Int64, limit: Int) async throws -> Leaderboard {
        let (rows, ahead) = try await database.read { db in
            let rows = try await LeaderboardRowsStatement(limit: Int64(limit), userId: userId).rows(on: db).map { row in
                (part: try row.string("part"), username: try row.decode(column: "username", as: String?.self),
                 key: try row.decode(column: "username_key", as: String?.self), points: try row.int64("points"))
            }
            var totals: [String: Int64] = [:]
            for row in rows where row.part == "me" || row.part == "last" { totals[row.part] = row.points }
            return (rows, try await Self.usersAhead(db, of: totals))
        }
        func value(_ part: String) -> Int64 { rows.first { $0.part == part }?.points ?? 0 }
        guard let meRow = rows.first(where: { $0.part == "me" }) else { throw StoreError.notFound }
        // UNION ALL promises no order: the top rows are put back in the board's order here.
        let top = rows.filter { $0.part == "top" }
            .sorted { ($0.points, $1.key ?? "") > ($1.points, $0.key ?? "") }
            .map { (username: $0.username ?? "", points: $0.points) }
        let me = Ranking(rank: ahead["me", default: 0] + 1, username: meRow.username ?? "", points: meRow.points)
        let last = rows.first { $0.part == "last" }.map {
            Ranking(rank: ahead["last", default: 0] + 1, username: $0.username ?? "", points: $0.points)
        }
        return Leaderboard.compose(topRows: top, me: me, last: last, userCount: Int(value("count")))
    }
}

/// The rows an uncached board shows, with the user count (`SQLStore.leaderboard`).
struct LeaderboardRowsStatement: PlannedStatement {
    static let name = "quizbox_leaderboard_rows"
    static let sql = """
        SELECT 'top' AS part, t.username, t.username_key, t.points
          FROM (SELECT username, username_key, points FROM users ORDER BY points DESC, username_key ASC LIMIT $1) t
        UNION ALL SELECT 'me', m.username, m.username_key, m.points FROM users m WHERE m.id = $2
        UNION ALL SELECT 'last', l.username, l.username_key, l.points
          FROM (SELECT username, username_key, points FROM users ORDER BY points ASC, username_key DESC LIMIT 1) l
        UNION ALL SELECT 'count', NULL, NULL, CAST(COALESCE(SUM(users), 0) AS BIGINT) FROM point_ranges
          WHERE level = \(PointLevels.top)
        """
    var limit: Int64
    var userId: Int64
    var values: [any PostgresEncodable & Encodable & Sendable] { [limit, userId] }
}
