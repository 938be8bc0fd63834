import Foundation
import QuizCore
import SQLKit

extension SQLStore: AssignmentStore {
    static let assignmentColumns = "id, code, quiz_id, owner_user_id, title, question_ids, settings, opens_at, closes_at, created_at, class_id"
    static let assignmentPlayerColumns = "id, assignment_id, nickname, user_id, secret_hash, code_hash, joined_at"
    static let assignmentAttemptColumns = "id, assignment_id, player_id, number, question_ids, max_marks, started_at, finished_at"
    static let assignmentAnswerColumns = "attempt_id, position, question_id, shown_at, answer, correct, marks, answered_at"

    public func createAssignment(_ assignment: Assignment) async throws -> Assignment? {
        let questionIds = try LiveJSON.encode(assignment.questionIds)
        let settings = try LiveJSON.encode(assignment.settings)
        return try await inserted(assignment, at: \.id, """
            INSERT INTO assignments (code, quiz_id, owner_user_id, title, question_ids, settings, opens_at, closes_at, created_at, class_id)
            VALUES (\(bind: assignment.code), \(bind: assignment.quizId), \(bind: assignment.ownerUserId), \(bind: assignment.title),
              \(bind: questionIds), \(bind: settings), \(bind: assignment.opensAt.millis), \(bind: assignment.closesAt.millis),
              \(bind: assignment.createdAt.millis), \(bind: assignment.classId))
            """)
    }

    /// `value` with the id its row was given; nil when a unique key refused the row.
    func inserted<T: Sendable>(_ value: T, at id: WritableKeyPath<T, Int64>, _ insert: SQLQueryString) async throws -> T? {
        let statement = insert + " ON CONFLICT DO NOTHING RETURNING id"
        guard let rowId = try await database.write({ db in try await db.raw(statement).first()?.int64("id") }) else { return nil }
        var stored = value
        stored[keyPath: id] = rowId
        return stored
    }

    public func assignment(id: Int64) async throws -> Assignment? {
        try await database.read { db in
            try await db.raw("SELECT \(unsafeRaw: Self.assignmentColumns) FROM assignments WHERE id = \(bind: id)").first().map(Self.assignment)
        }
    }

    public func assignment(code: String) async throws -> Assignment? {
        try await database.read { db in
            try await db.raw("SELECT \(unsafeRaw: Self.assignmentColumns) FROM assignments WHERE code = \(bind: code)").first().map(Self.assignment)
        }
    }

    public func assignments(ownerUserId: Int64, limit: Int, at now: Date) async throws -> [AssignmentSummary] {
        try await database.read { db in
            try await db.raw("""
                SELECT \(unsafeRaw: Self.assignmentColumns),
                  (SELECT COUNT(*) FROM assignment_players p WHERE p.assignment_id = assignments.id) AS players,
                  (SELECT COUNT(DISTINCT t.player_id) FROM assignment_attempts t
                   WHERE t.assignment_id = assignments.id
                     AND (t.finished_at IS NOT NULL OR assignments.closes_at <= \(bind: now.millis))) AS finished
                FROM assignments WHERE owner_user_id = \(bind: ownerUserId) ORDER BY created_at DESC, id DESC LIMIT \(bind: limit)
                """).all().map { row in
                AssignmentSummary(assignment: try Self.assignment(row), players: try row.int("players"), finished: try row.int("finished"))
            }
        }
    }

    public func setAssignmentWindow(id: Int64, opensAt: Date, closesAt: Date) async throws {
        try await database.write { db in
            try await db.raw("""
                UPDATE assignments SET opens_at = \(bind: opensAt.millis), closes_at = \(bind: closesAt.millis) WHERE id = \(bind: id)
                """).run()
        }
    }

    static func assignment(_ row: any SQLRow) throws -> Assignment {
        Assignment(id: try row.int64("id"), code: try row.string("code"), quizId: try row.int64("quiz_id"),
                   ownerUserId: try row.int64("owner_user_id"), title: try row.string("title"),
                   questionIds: try LiveJSON.decode([Int64].self, from: try row.string("question_ids")),
                   opensAt: try row.date("opens_at"), closesAt: try row.date("closes_at"),
                   settings: try LiveJSON.decode(AssignmentSettings.self, from: try row.string("settings")),
                   createdAt: try row.date("created_at"), classId: try row.decode(column: "class_id", as: Int64?.self))
    }

    // MARK: Players

    public func addAssignmentPlayer(_ player: AssignmentPlayerRecord) async throws -> AssignmentPlayerRecord? {
        // The unique indexes on the nickname's key and on the user decide, on every instance at once.
        try await inserted(player, at: \.id, """
            INSERT INTO assignment_players (assignment_id, nickname, nickname_key, user_id, secret_hash, code_hash, joined_at)
            VALUES (\(bind: player.assignmentId), \(bind: player.nickname), \(bind: Nickname.key(player.nickname)), \(bind: player.userId),
              \(bind: player.secretHash), \(bind: player.codeHash), \(bind: player.joinedAt.millis))
            """)
    }

    public func assignmentPlayer(id: Int64) async throws -> AssignmentPlayerRecord? {
        try await assignmentPlayers(where: "id = \(bind: id)").first
    }

    public func assignmentPlayer(assignmentId: Int64, userId: Int64) async throws -> AssignmentPlayerRecord? {
        try await assignmentPlayers(where: "assignment_id = \(bind: assignmentId) AND user_id = \(bind: userId)").first
    }

    public func assignmentPlayer(assignmentId: Int64, nickname: String) async throws -> AssignmentPlayerRecord? {
        try await assignmentPlayers(where: "assignment_id = \(bind: assignmentId) AND nickname_key = \(bind: Nickname.key(nickname))").first
    }

    public func assignmentPlayers(assignmentId: Int64) async throws -> [AssignmentPlayerRecord] {
        try await assignmentPlayers(where: "assignment_id = \(bind: assignmentId)")
    }

    private func assignmentPlayers(where condition: SQLQueryString) async throws -> [AssignmentPlayerRecord] {
        try await database.read { db in
            try await db.raw("SELECT \(unsafeRaw: Self.assignmentPlayerColumns) FROM assignment_players WHERE \(condition) ORDER BY id").all().map { row in
                AssignmentPlayerRecord(id: try row.int64("id"), assignmentId: try row.int64("assignment_id"), nickname: try row.string("nickname"),
                                       userId: try row.decode(column: "user_id", as: Int64?.self), secretHash: try row.string("secret_hash"),
                                       codeHash: try row.string("code_hash"), joinedAt: try row.date("joined_at"))
            }
        }
    }

    public func replaceAssignmentSecret(playerId: Int64, secretHash: String) async throws {
        try await database.write { db in
            try await db.raw("UPDATE assignment_players SET secret_hash = \(bind: secretHash) WHERE id = \(bind: playerId)").run()
        }
    }
}
