import Logging
import NIOCore
import PostgresKit
import PostgresNIO
import SQLKit

/// A hot statement that PostgreSQL parses and plans once per connection instead of on every run.
///
/// postgres-nio sends SQLKit's queries unnamed, so PostgreSQL parses and plans each one again:
/// for a lookup by primary key that is most of the server's work. A statement of this kind is
/// prepared by postgres-nio on each connection the first time it runs there, and only bound and
/// executed after. The same text runs on SQLite, which reads `$1`, `$2`, … as parameters bound in
/// order of first appearance (write them in increasing order).
protocol PlannedStatement: PostgresPreparedStatement where Row == PostgresRow {
    // Each names itself: postgres-nio's default, `String(reflecting:)`, is worked out on every run.
    /// The values for `$1`, `$2`, …, in order.
    var values: [any PostgresEncodable & Encodable & Sendable] { get }
}

extension PlannedStatement {
    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: values.count)
        for value in values { try bindings.append(value) }
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> PostgresRow { row }

    /// The rows the statement returns on `db`.
    func rows(on db: any SQLDatabase) async throws -> [any SQLRow] {
        guard let connection = (db as? PostgresConnectionDatabase)?.connection else {
            let values = values.map { $0 as any Encodable & Sendable }
            return try await db.raw("\(NumberedParameters(sql: Self.sql, values: values))").all()
        }
        var rows: [any SQLRow] = []
        for try await row in try await connection.execute(self, logger: connection.logger) { rows.append(row.sql()) }
        return rows
    }
}

/// SQL text whose `$1`, `$2`, … are bound to `values` in order, for SQLite.
private struct NumberedParameters: SQLExpression {
    let sql: String
    let values: [any Encodable & Sendable]

    func serialize(to serializer: inout SQLSerializer) {
        serializer.write(sql)
        serializer.binds.append(contentsOf: values)
    }
}

// MARK: - The statements run on (nearly) every request

/// The change counters of `ChangeTracker`, read before a request uses its caches.
struct ChangeCountersStatement: PlannedStatement {
    static let name = "quizbox_change_counters"
    static let sql = "SELECT " + ChangeTracker.sequences.map { "(SELECT last_value FROM \($0)) AS \($0)" }.joined(separator: ", ")
    var values: [any PostgresEncodable & Encodable & Sendable] { [] }
}

/// An attempt and its answers in the quiz's order (`SQLStore.loadAttempt`).
struct AttemptWithAnswersStatement: PlannedStatement {
    static let name = "quizbox_attempt_with_answers"
    static let sql = """
        SELECT t.id, t.user_id, t.quiz_id, t.started_at, t.finished_at,
               a.question_id, a.correct, a.points, a.answered_at, a.answer
        FROM attempts t LEFT JOIN answers a ON a.attempt_id = t.id
        LEFT JOIN quiz_questions qq ON qq.quiz_id = t.quiz_id AND qq.question_id = a.question_id
        WHERE t.id = $1
        ORDER BY qq.position, a.answered_at
        """
    var id: Int64
    var values: [any PostgresEncodable & Encodable & Sendable] { [id] }
}

/// Who owns an attempt and which quiz it plays.
struct AttemptOwnerStatement: PlannedStatement {
    static let name = "quizbox_attempt_owner"
    static let sql = "SELECT user_id, quiz_id FROM attempts WHERE id = $1"
    var id: Int64
    var values: [any PostgresEncodable & Encodable & Sendable] { [id] }
}

/// A session by the hash of its token, with its user.
struct SessionStatement: PlannedStatement {
    static let name = "quizbox_session"
    static let sql = """
        SELECT \(SQLStore.userColumns), s.expires_at FROM sessions s JOIN users u ON u.id = s.user_id
        WHERE s.token_hash = $1
        """
    var tokenHash: String
    var values: [any PostgresEncodable & Encodable & Sendable] { [tokenHash] }
}

/// A user by id.
struct UserStatement: PlannedStatement {
    static let name = "quizbox_user"
    static let sql = "SELECT \(SQLStore.userColumns) FROM users u WHERE u.id = $1"
    var id: Int64
    var values: [any PostgresEncodable & Encodable & Sendable] { [id] }
}

/// A pooled PostgreSQL connection as SQLKit's database, keeping the connection itself at hand for
/// `PlannedStatement` (postgres-kit's wrapper does not show it).
struct PostgresConnectionDatabase: SQLDatabase {
    let connection: PostgresConnection
    let sql: any SQLDatabase

    init(_ connection: PostgresConnection) {
        self.connection = connection
        // Queries at trace: a debug log would print every statement with its binds.
        sql = connection.sql(queryLogLevel: .trace)
    }

    var logger: Logger { sql.logger }
    var eventLoop: any EventLoop { sql.eventLoop }
    var version: (any SQLDatabaseReportedVersion)? { sql.version }
    var dialect: any SQLDialect { sql.dialect }
    var queryLogLevel: Logger.Level? { sql.queryLogLevel }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) -> EventLoopFuture<Void> {
        sql.execute(sql: query, onRow)
    }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        try await sql.execute(sql: query, onRow)
    }

    /// `SQLDatabase`'s requirement: one connection is one session, so the closure gets this
    /// database (SQLKit's default does the same; written out so that it is plain).
    func withSession<R>(_ closure: @escaping @Sendable (any SQLDatabase) async throws -> R) async throws -> R {
        try await closure(self)
    }
}

/// Answers stored together (`AnswerBatcher`), on PostgreSQL: one statement text whatever the
/// number of answers, so it is prepared once, instead of a VALUES list planned for every batch.
struct AnswerBatchStatement: PostgresPreparedStatement {
    typealias Row = PostgresRow
    static let name = "quizbox_answer_batch"
    static let sql = """
        INSERT INTO answers (attempt_id, question_id, answer, correct, points, answered_at)
        SELECT v.attempt_id, v.question_id, v.answer, v.correct, v.points, v.answered_at
        FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::boolean[], $5::bigint[], $6::bigint[])
          AS v(attempt_id, question_id, answer, correct, points, answered_at)
        WHERE EXISTS (SELECT 1 FROM attempts a WHERE a.id = v.attempt_id AND a.finished_at IS NULL FOR SHARE)
        ON CONFLICT (attempt_id, question_id) DO NOTHING RETURNING attempt_id, question_id
        """
    var attemptIds: [Int64] = []
    var questionIds: [Int64] = []
    var answers: [String] = []
    var correct: [Bool] = []
    var points: [Int64] = []
    var answeredAt: [Int64] = []

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 6)
        bindings.append(attemptIds)
        bindings.append(questionIds)
        bindings.append(answers)
        bindings.append(correct)
        bindings.append(points)
        bindings.append(answeredAt)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> PostgresRow { row }

    func rows(on connection: PostgresConnection) async throws -> [any SQLRow] {
        var rows: [any SQLRow] = []
        for try await row in try await connection.execute(self, logger: connection.logger) { rows.append(row.sql()) }
        return rows
    }
}
