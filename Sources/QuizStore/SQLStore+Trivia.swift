import Foundation
import QuizCore
import SQLKit

extension SQLStore: TriviaStore {
    public func triviaQuestions() async throws -> [TriviaQuestion] {
        try await database.read { db in
            // In a published quiz that is no practice round and has no time limit: readable by anyone
            // already (GET /api/v1/quizzes/{id}/questions), and no timed question's text leaks early.
            try await db.raw("""
                SELECT \(unsafeRaw: Self.questionColumns), t.id AS topic_id, t.name AS topic_name, s.name AS subject_name
                FROM questions x JOIN topics t ON t.id = x.topic_id JOIN subjects s ON s.id = t.subject_id
                WHERE x.kind IN ('singleChoice', 'trueFalse') AND \(unsafeRaw: Self.playableQuestion)
                  AND EXISTS (SELECT 1 FROM quiz_questions qq JOIN quizzes q ON q.id = qq.quiz_id
                              WHERE qq.question_id = x.id AND q.published AND q.practice_user_id IS NULL
                                AND q.time_limit_seconds IS NULL)
                ORDER BY x.id
                """).all().map {
                TriviaQuestion(question: try QuestionBodyRecord.decodeQuestion($0), topicId: try $0.int64("topic_id"),
                               subjectName: try $0.string("subject_name"), topicName: try $0.string("topic_name"))
            }
        }
    }

    public func createTriviaToken(hash: String, at date: Date, limit: Int) async throws {
        try await database.transaction { db in
            try await db.raw("""
                INSERT INTO trivia_tokens (token_hash, created_at, used_at) VALUES (\(bind: hash), \(bind: date.millis), \(bind: date.millis))
                """).run()
            let count = try await db.raw("SELECT COUNT(*) AS n FROM trivia_tokens").first()?.decode(column: "n", as: Int.self) ?? 0
            guard count > limit else { return }
            // Oldest use first; the one just made is the newest, so it stays.
            let stale = try await db.raw("""
                SELECT token_hash FROM trivia_tokens ORDER BY used_at, token_hash LIMIT \(bind: count - limit)
                """).all().map { try $0.string("token_hash") }
            for old in stale { try await Self.deleteTriviaToken(old, on: db) }
        }
    }

    public func triviaServed(hash: String, usedSince: Date) async throws -> Set<Int64>? {
        try await database.read { db in
            guard try await db.raw("""
                SELECT token_hash FROM trivia_tokens WHERE token_hash = \(bind: hash) AND used_at >= \(bind: usedSince.millis)
                """).first() != nil else { return nil }
            return Set(try await db.raw("SELECT question_id FROM trivia_served WHERE token_hash = \(bind: hash)").all()
                .map { try $0.int64("question_id") })
        }
    }

    public func recordTriviaServed(hash: String, questionIds: [Int64], usedSince: Date, at date: Date) async throws -> Bool {
        try await database.transaction { db in
            guard try await Self.touchTriviaToken(hash, usedSince: usedSince, at: date, on: db) else { return false }
            for id in questionIds {
                try await db.raw("""
                    INSERT INTO trivia_served (token_hash, question_id) VALUES (\(bind: hash), \(bind: id)) ON CONFLICT DO NOTHING
                    """).run()
            }
            return true
        }
    }

    public func resetTriviaToken(hash: String, usedSince: Date, at date: Date) async throws -> Bool {
        try await database.transaction { db in
            guard try await Self.touchTriviaToken(hash, usedSince: usedSince, at: date, on: db) else { return false }
            try await db.raw("DELETE FROM trivia_served WHERE token_hash = \(bind: hash)").run()
            return true
        }
    }

    @discardableResult
    public func deleteTriviaTokens(unusedSince date: Date) async throws -> Int {
        try await database.transaction { db in
            let stale = try await db.raw("SELECT token_hash FROM trivia_tokens WHERE used_at < \(bind: date.millis)").all()
                .map { try $0.string("token_hash") }
            for hash in stale { try await Self.deleteTriviaToken(hash, on: db) }
            return stale.count
        }
    }

    /// Marks a live token used now; false when there is none used since `usedSince`.
    private static func touchTriviaToken(_ hash: String, usedSince: Date, at date: Date, on db: any SQLDatabase) async throws -> Bool {
        try await db.raw("""
            UPDATE trivia_tokens SET used_at = \(bind: date.millis)
            WHERE token_hash = \(bind: hash) AND used_at >= \(bind: usedSince.millis) RETURNING token_hash
            """).first() != nil
    }

    /// SQLite does not enforce the foreign key here, so the served rows go explicitly.
    private static func deleteTriviaToken(_ hash: String, on db: any SQLDatabase) async throws {
        try await db.raw("DELETE FROM trivia_served WHERE token_hash = \(bind: hash)").run()
        try await db.raw("DELETE FROM trivia_tokens WHERE token_hash = \(bind: hash)").run()
    }
}
