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
        guard let postgres = db as? any PostgresDatabase else {
            let values = values.map { $0 as any Encodable & Sendable }
            return try await db.raw("\(NumberedParameters(sql: Self.sql, values: values))").all()
        }
        let statement = self
        let rows = try await postgres.withConnection { connection in
            connection.eventLoop.makeFutureWithTask {
                var rows: [PostgresRow] = []
                for try await row in try await connection.execute(statement, logger: connection.logger) { rows.append(row) }
                return rows
            }
        }.get()
        return rows.map { $0.sql() }
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
    static let sql = "SELECT " + ChangeTracker.sequences.map { "(SELECT last_value FROM \($0)) AS \($0)" }.joined(separator: ", ")
    var values: [any PostgresEncodable & Encodable & Sendable] { [] }
}

/// An attempt and its answers in the quiz's order (`SQLStore.loadAttempt`).
struct AttemptWithAnswersStatement: PlannedStatement {
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
    static let sql = "SELECT user_id, quiz_id FROM attempts WHERE id = $1"
    var id: Int64
    var values: [any PostgresEncodable & Encodable & Sendable] { [id] }
}

/// A session by the hash of its token, with its user.
struct SessionStatement: PlannedStatement {
    static let sql = """
        SELECT \(SQLStore.userColumns), s.expires_at FROM sessions s JOIN users u ON u.id = s.user_id
        WHERE s.token_hash = $1
        """
    var tokenHash: String
    var values: [any PostgresEncodable & Encodable & Sendable] { [tokenHash] }
}

/// A user by id.
struct UserStatement: PlannedStatement {
    static let sql = "SELECT \(SQLStore.userColumns) FROM users u WHERE u.id = $1"
    var id: Int64
    var values: [any PostgresEncodable & Encodable & Sendable] { [id] }
}
