import Foundation
import QuizCore
import SQLKit

extension SQLStore: PracticeStore {
    /// Questions players may meet outside quizzes: not archived, in a topic and subject players can see.
    static let playableQuestion = "x.archived_at IS NULL AND \(visibleTopic) AND \(visibleSubject)"

    public func practiceCandidates() async throws -> [PracticeCandidate] {
        try await database.read { db in
            try await db.raw("""
                SELECT x.id, t.subject_id, x.topic_id, x.difficulty, x.kind
                FROM questions x JOIN topics t ON t.id = x.topic_id JOIN subjects s ON s.id = t.subject_id
                WHERE \(unsafeRaw: Self.playableQuestion)
                ORDER BY s.position, s.id, t.position, t.id, x.id
                """).all().enumerated().compactMap { position, row in
                guard let difficulty = Difficulty(rawValue: try row.string("difficulty")),
                      let kind = QuestionKind(rawValue: try row.string("kind")) else { return nil }
                return PracticeCandidate(id: try row.int64("id"), subjectId: try row.int64("subject_id"),
                                         topicId: try row.int64("topic_id"), difficulty: difficulty, kind: kind, position: position)
            }
        }
    }

    public func question(id: Int64) async throws -> Question? {
        try await database.read { db in
            try await db.raw("""
                SELECT \(unsafeRaw: Self.questionColumns)
                FROM questions x JOIN topics t ON t.id = x.topic_id JOIN subjects s ON s.id = t.subject_id
                WHERE x.id = \(bind: id) AND \(unsafeRaw: Self.playableQuestion)
                """).first().map(QuestionBodyRecord.decodeQuestion)
        }
    }

    public func practiceSettings(userId: Int64) async throws -> PracticeSettings? {
        try await database.read { db in
            guard let json = try await db.raw("SELECT settings FROM practice_settings WHERE user_id = \(bind: userId)")
                .first()?.string("settings") else { return nil }
            // Settings saved by an older build that no longer decode are simply forgotten.
            return try? JSONDecoder().decode(PracticeSettings.self, from: Data(json.utf8))
        }
    }

    public func seenQuestions(userId: Int64) async throws -> Set<Int64> {
        try await database.read { db in
            Set(try await db.raw("SELECT question_id FROM practice_seen WHERE user_id = \(bind: userId)").all().map { try $0.int64("question_id") })
        }
    }

    public func forgetSeenQuestions(userId: Int64) async throws {
        try await database.write { db in try await db.raw("DELETE FROM practice_seen WHERE user_id = \(bind: userId)").run() }
    }

    public func startPractice(userId: Int64, settings: PracticeSettings, title: String, questionIds: [Int64], at date: Date) async throws -> Attempt {
        guard let first = questionIds.first else { throw StoreError.notFound }
        let settingsJSON = String(decoding: try JSONEncoder().encode(settings), as: UTF8.self)
        return try await database.transaction { db in
            guard let topicId = try await db.raw("SELECT topic_id FROM questions WHERE id = \(bind: first)").first()?.int64("topic_id"),
                  let quizId = try await db.raw("""
                    INSERT INTO quizzes (topic_id, title, description, position, practice_user_id, time_limit_seconds)
                    VALUES (\(bind: topicId), \(bind: title), '', 0, \(bind: userId), \(bind: settings.timeLimitSeconds))
                    RETURNING id
                    """).first()?.int64("id") else { throw StoreError.notFound }
            let rows: [SQLQueryString] = questionIds.enumerated().map { "(\(bind: quizId), \(bind: $1), \(bind: $0 + 1))" }
            try await db.raw("INSERT INTO quiz_questions (quiz_id, question_id, position) VALUES \(rows.joined(separator: ", "))").run()
            let seen: [SQLQueryString] = questionIds.map { "(\(bind: userId), \(bind: $0), \(bind: date.millis))" }
            try await db.raw("""
                INSERT INTO practice_seen (user_id, question_id, seen_at) VALUES \(seen.joined(separator: ", "))
                ON CONFLICT (user_id, question_id) DO NOTHING
                """).run()
            try await db.raw("""
                INSERT INTO practice_settings (user_id, settings, updated_at) VALUES (\(bind: userId), \(bind: settingsJSON), \(bind: date.millis))
                ON CONFLICT (user_id) DO UPDATE SET settings = excluded.settings, updated_at = excluded.updated_at
                """).run()
            guard let attemptId = try await db.raw("""
                INSERT INTO attempts (user_id, quiz_id, started_at) VALUES (\(bind: userId), \(bind: quizId), \(bind: date.millis))
                RETURNING id
                """).first()?.int64("id") else { throw StoreError.notFound }
            return Attempt(id: attemptId, userId: userId, quizId: quizId, startedAt: Date(millis: date.millis))
        }
    }

    public func markShown(attemptId: Int64, questionId: Int64, at date: Date) async throws -> Date {
        try await database.write { db in
            try await db.raw("""
                INSERT INTO question_views (attempt_id, question_id, shown_at) VALUES (\(bind: attemptId), \(bind: questionId), \(bind: date.millis))
                ON CONFLICT (attempt_id, question_id) DO NOTHING
                """).run()
            return try await db.raw("""
                SELECT shown_at FROM question_views WHERE attempt_id = \(bind: attemptId) AND question_id = \(bind: questionId)
                """).first()?.date("shown_at") ?? Date(millis: date.millis)
        }
    }

    public func shownAt(attemptId: Int64, questionId: Int64) async throws -> Date? {
        try await database.read { db in
            try await db.raw("""
                SELECT shown_at FROM question_views WHERE attempt_id = \(bind: attemptId) AND question_id = \(bind: questionId)
                """).first()?.date("shown_at")
        }
    }

    public func shownQuestions(attemptId: Int64) async throws -> Set<Int64> {
        try await database.read { db in
            Set(try await db.raw("SELECT question_id FROM question_views WHERE attempt_id = \(bind: attemptId)").all()
                .map { try $0.int64("question_id") })
        }
    }

    public func startClocks(userId: Int64, questionId: Int64, at date: Date) async throws {
        // Nearly always nobody is in a timed round holding this question: a read says so, and
        // the single writer is asked only when there is a clock to start.
        let waiting = try await database.read { db in
            try await db.raw("""
                SELECT 1 AS waiting FROM attempts a
                JOIN quizzes z ON z.id = a.quiz_id
                JOIN quiz_questions qq ON qq.quiz_id = a.quiz_id AND qq.question_id = \(bind: questionId)
                WHERE a.user_id = \(bind: userId) AND a.finished_at IS NULL AND z.time_limit_seconds IS NOT NULL
                  AND NOT EXISTS (SELECT 1 FROM question_views v WHERE v.attempt_id = a.id AND v.question_id = qq.question_id)
                LIMIT 1
                """).first() != nil
        }
        guard waiting else { return }
        try await database.write { db in
            try await db.raw("""
                INSERT INTO question_views (attempt_id, question_id, shown_at)
                SELECT a.id, qq.question_id, \(bind: date.millis) FROM attempts a
                JOIN quizzes z ON z.id = a.quiz_id
                JOIN quiz_questions qq ON qq.quiz_id = a.quiz_id AND qq.question_id = \(bind: questionId)
                WHERE a.user_id = \(bind: userId) AND a.finished_at IS NULL AND z.time_limit_seconds IS NOT NULL
                ON CONFLICT (attempt_id, question_id) DO NOTHING
                """).run()
        }
    }

    public func recordSingleAnswer(userId: Int64, questionId: Int64, answer: String, isCorrect: Bool, points: Int, at date: Date) async throws -> SingleAnswer {
        let day = date.millis / 86_400_000
        return try await database.transaction { db in
            // The row exists only for the day's first answer: that one counts, right or wrong.
            let counted = try await db.raw("""
                INSERT INTO daily_points (user_id, question_id, day) VALUES (\(bind: userId), \(bind: questionId), \(bind: day))
                ON CONFLICT (user_id, question_id, day) DO NOTHING RETURNING day
                """).first() != nil
            let awarded = counted ? points : 0
            guard let id = try await db.raw("""
                INSERT INTO single_answers (user_id, question_id, answer, correct, points, counted, answered_at)
                VALUES (\(bind: userId), \(bind: questionId), \(bind: answer), \(bind: isCorrect), \(bind: awarded), \(bind: counted), \(bind: date.millis))
                RETURNING id
                """).first()?.int64("id") else { throw StoreError.notFound }
            if awarded != 0 { try await Self.addPoints(db, Int64(awarded), userId: userId) }
            return SingleAnswer(id: id, userId: userId, questionId: questionId, given: answer, isCorrect: isCorrect,
                                pointsAwarded: awarded, counted: counted, answeredAt: Date(millis: date.millis))
        }
    }

    public func singleAnswer(id: Int64, userId: Int64) async throws -> SingleAnswer? {
        try await database.read { db in
            try await db.raw("""
                SELECT id, user_id, question_id, answer, correct, points, counted, answered_at FROM single_answers
                WHERE id = \(bind: id) AND user_id = \(bind: userId)
                """).first().map {
                SingleAnswer(id: try $0.int64("id"), userId: try $0.int64("user_id"), questionId: try $0.int64("question_id"),
                             given: try $0.string("answer"), isCorrect: try $0.bool("correct"), pointsAwarded: try $0.int("points"),
                             counted: try $0.bool("counted"), answeredAt: try $0.date("answered_at"))
            }
        }
    }

    /// Adds to a user's total inside the caller's transaction, keeping the rank buckets in step;
    /// returns the new total (nil when nothing was added or there is no such user).
    @discardableResult
    static func addPoints(_ db: any SQLDatabase, _ points: Int64, userId: Int64) async throws -> Int64? {
        // The old total comes from the update itself, so a concurrent writer cannot slip in between.
        guard points != 0, let new = try await db.raw("""
            UPDATE users SET points = points + \(bind: points) WHERE id = \(bind: userId) RETURNING points
            """).first()?.int64("points") else { return nil }
        try await moveBucket(db, from: new - points, to: new)
        return new
    }
}
