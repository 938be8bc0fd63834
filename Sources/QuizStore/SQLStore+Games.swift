import Foundation
import QuizCore
import SQLKit

extension SQLStore: GameStore {
    public func nameAllQuestions() async throws -> [(question: Question, topicName: String)] {
        try await database.read { db in
            try await db.raw("""
                SELECT \(unsafeRaw: Self.questionColumns), t.name AS topic_name
                FROM questions x JOIN topics t ON t.id = x.topic_id JOIN subjects s ON s.id = t.subject_id
                WHERE x.kind = \(bind: QuestionKind.nameAll.rawValue) AND \(unsafeRaw: Self.playableQuestion)
                ORDER BY s.position, s.id, t.position, t.id, x.id
                """).all().map { (question: try QuestionBodyRecord.decodeQuestion($0), topicName: try $0.string("topic_name")) }
        }
    }

    public func startGame(userId: Int64, questionId: Int64, at date: Date) async throws -> StoredGame {
        try await startGame(userId: userId, questionId: questionId, at: date, question: question(id:))
    }

    /// `startGame` with the question read by `question` (a cache's, say).
    func startGame(
        userId: Int64, questionId: Int64, at date: Date, question: (Int64) async throws -> Question?
    ) async throws -> StoredGame {
        guard let question = try await question(questionId), question.kind == .nameAll else { throw StoreError.notFound }
        let id = try await database.write { db in
            guard let id = try await db.raw("""
                INSERT INTO games (user_id, question_id, started_at) VALUES (\(bind: userId), \(bind: questionId), \(bind: date.millis))
                RETURNING id
                """).first()?.int64("id") else { throw StoreError.notFound }
            return id
        }
        return StoredGame(id: id, userId: userId, question: question, startedAt: Date(millis: date.millis),
                          found: [], endedAt: nil, endReason: nil, points: 0)
    }

    public func game(id: Int64) async throws -> StoredGame? {
        try await game(id: id, question: question(id:))
    }

    /// `game(id:)` with the question read by `question` (a cache's, say).
    func game(id: Int64, question: (Int64) async throws -> Question?) async throws -> StoredGame? {
        let row = try await database.read { db -> (Int64, Int64, Date, Date?, String?, Int, [Int])? in
            guard let row = try await db.raw("""
                SELECT user_id, question_id, started_at, ended_at, end_reason, points FROM games WHERE id = \(bind: id)
                """).first() else { return nil }
            let found = try await db.raw("SELECT item FROM game_finds WHERE game_id = \(bind: id) ORDER BY found_at, item")
                .all().map { try $0.int("item") }
            return (try row.int64("user_id"), try row.int64("question_id"), try row.date("started_at"),
                    try row.optionalDate("ended_at"), try row.decode(column: "end_reason", as: String?.self), try row.int("points"), found)
        }
        guard let (userId, questionId, startedAt, endedAt, reason, points, found) = row,
              let question = try await question(questionId) else { return nil }
        return StoredGame(id: id, userId: userId, question: question, startedAt: startedAt, found: found,
                          endedAt: endedAt, endReason: reason.flatMap(NameAllGame.EndReason.init(rawValue:)), points: points)
    }

    public func recordFind(gameId: Int64, item: Int, at date: Date) async throws -> Bool {
        try await database.write { db in
            try await db.raw("""
                INSERT INTO game_finds (game_id, item, found_at) VALUES (\(bind: gameId), \(bind: item), \(bind: date.millis))
                ON CONFLICT (game_id, item) DO NOTHING RETURNING item
                """).first() != nil
        }
    }

    public func endGame(id: Int64, reason: NameAllGame.EndReason, at date: Date, points: Int) async throws -> Bool {
        try await endGameReturningPlayer(id: id, reason: reason, at: date, points: points) != nil
    }

    /// `endGame`, answering with the player whose game this call ended (nil when it had ended before).
    func endGameReturningPlayer(id: Int64, reason: NameAllGame.EndReason, at date: Date, points: Int) async throws -> Int64? {
        let dialect = database.dialect
        return try await database.transaction { db -> Int64? in
            // Only the call that sets ended_at adds the points.
            guard let row = try await db.raw("""
                UPDATE games SET ended_at = \(bind: date.millis), end_reason = \(bind: reason.rawValue), points = \(bind: points)
                WHERE id = \(bind: id) AND ended_at IS NULL RETURNING user_id, question_id
                """).first() else { return nil }
            let userId = try row.int64("user_id")
            if dialect == .postgres { try await db.raw("SELECT id FROM users WHERE id = \(bind: userId) FOR UPDATE").run() }
            // A list's points count once, at their best: giving up, reading the answers and
            // starting again adds only what the new game beats the best earlier one by.
            let best = try await db.raw("""
                SELECT CAST(COALESCE(MAX(points), 0) AS BIGINT) AS best FROM games
                WHERE user_id = \(bind: userId) AND question_id = \(bind: try row.int64("question_id")) AND id <> \(bind: id)
                  AND ended_at IS NOT NULL
                """).first()?.int64("best") ?? 0
            try await Self.addPoints(db, max(0, Int64(points) - best), userId: userId)
            return userId
        }
    }
}
