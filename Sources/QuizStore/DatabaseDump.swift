import Foundation
import SQLKit

/// A whole instance as JSON lines, to move it between SQLite and PostgreSQL: one header line,
/// then one line per table (its name and columns) followed by one line per row. Every table is
/// listed here with each column's type, because SQLite stores booleans as 0/1 and a NULL must be
/// bound with its column's type on PostgreSQL.
public enum DatabaseDump {
    public enum Kind: Sendable { case int, text, bool }

    struct Table: Sendable {
        let name: String
        let columns: [(name: String, kind: Kind)]
        /// An identity column whose sequence must follow the copied ids on PostgreSQL.
        var hasId: Bool { columns.first?.name == "id" }
    }

    public enum Value: Codable, Equatable, Sendable {
        case null, int(Int64), text(String), bool(Bool)

        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() { self = .null } else if let bool = try? container.decode(Bool.self) { self = .bool(bool) } else if let int = try? container.decode(Int64.self) { self = .int(int) } else { self = .text(try container.decode(String.self)) }
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .null: try container.encodeNil()
            case .int(let value): try container.encode(value)
            case .text(let value): try container.encode(value)
            case .bool(let value): try container.encode(value)
            }
        }
    }

    public enum DumpError: Error, CustomStringConvertible, Equatable {
        case notEmpty
        case wrongSchema(found: Int, expected: Int)
        case unreadable(line: Int, reason: String)

        public var description: String {
            switch self {
            case .notEmpty: "the target database already holds users or questions; import into an empty one"
            case .wrongSchema(let found, let expected):
                "the dump is of schema version \(found) but this Quizbox writes version \(expected); export it again with this version"
            case .unreadable(let line, let reason): "line \(line): \(reason)"
            }
        }
    }

    /// In an order that respects every foreign key. Rate limits, import previews, pending external
    /// sign-ins, Open Trivia DB tokens and migrations are left out: the first four are transient
    /// (a client whose token is gone gets code 3 and asks for another) and the last belongs to
    /// the target.
    static let tables: [Table] = [
        Table(name: "users", columns: [("id", .int), ("username", .text), ("username_key", .text), ("first_name", .text),
                                       ("last_name", .text), ("password_hash", .text), ("role", .text), ("points", .int), ("created_at", .int),
                                       ("language", .text)]),
        Table(name: "point_buckets", columns: [("points", .int), ("users", .int)]),
        Table(name: "point_ranges", columns: [("level", .int), ("bucket", .int), ("users", .int)]),
        Table(name: "sessions", columns: [("token_hash", .text), ("user_id", .int), ("created_at", .int), ("expires_at", .int)]),
        Table(name: "subjects", columns: [("id", .int), ("name", .text), ("description", .text), ("position", .int), ("published", .bool),
                                          ("cover_hash", .text), ("cover_type", .text), ("cover_width", .int), ("cover_height", .int)]),
        Table(name: "topics", columns: [("id", .int), ("subject_id", .int), ("name", .text), ("description", .text), ("position", .int),
                                        ("published", .bool)]),
        Table(name: "questions", columns: [("id", .int), ("topic_id", .int), ("kind", .text), ("text", .text), ("explanation", .text),
                                           ("difficulty", .text), ("points", .int), ("body", .text), ("created_at", .int), ("archived_at", .int),
                                           ("picture_hash", .text), ("picture_type", .text), ("picture_alt", .text),
                                           ("picture_width", .int), ("picture_height", .int),
                                           ("audio_hash", .text), ("audio_type", .text), ("audio_description", .text),
                                           ("audio_milliseconds", .int)]),
        Table(name: "quizzes", columns: [("id", .int), ("topic_id", .int), ("title", .text), ("description", .text), ("position", .int),
                                         ("practice_user_id", .int), ("time_limit_seconds", .int), ("published", .bool),
                                         ("cover_hash", .text), ("cover_type", .text), ("cover_width", .int), ("cover_height", .int)]),
        Table(name: "quiz_questions", columns: [("quiz_id", .int), ("question_id", .int), ("position", .int)]),
        Table(name: "attempts", columns: [("id", .int), ("user_id", .int), ("quiz_id", .int), ("started_at", .int), ("finished_at", .int),
                                          ("question_count", .int), ("total_points", .int), ("points_added", .int)]),
        Table(name: "answers", columns: [("attempt_id", .int), ("question_id", .int), ("answer", .text), ("correct", .bool), ("points", .int),
                                         ("answered_at", .int)]),
        Table(name: "question_views", columns: [("attempt_id", .int), ("question_id", .int), ("shown_at", .int)]),
        Table(name: "practice_settings", columns: [("user_id", .int), ("settings", .text), ("updated_at", .int)]),
        Table(name: "practice_seen", columns: [("user_id", .int), ("question_id", .int), ("seen_at", .int)]),
        Table(name: "single_answers", columns: [("id", .int), ("user_id", .int), ("question_id", .int), ("answer", .text), ("correct", .bool),
                                                ("points", .int), ("counted", .bool), ("answered_at", .int)]),
        Table(name: "daily_points", columns: [("user_id", .int), ("question_id", .int), ("day", .int)]),
        Table(name: "games", columns: [("id", .int), ("user_id", .int), ("question_id", .int), ("started_at", .int), ("ended_at", .int),
                                       ("end_reason", .text), ("points", .int)]),
        Table(name: "game_finds", columns: [("game_id", .int), ("item", .int), ("found_at", .int)]),
        Table(name: "follows", columns: [("follower_id", .int), ("followee_id", .int), ("created_at", .int)]),
        Table(name: "posts", columns: [("id", .int), ("user_id", .int), ("body", .text), ("image_hash", .text), ("image_type", .text),
                                       ("created_at", .int), ("image_bytes", .int)]),
        Table(name: "articles", columns: [("id", .int), ("title", .text), ("summary", .text), ("source_name", .text), ("url", .text),
                                          ("image_url", .text), ("published_at", .int), ("dedupe_key", .text), ("quiz_id", .int),
                                          ("created_by", .int), ("created_at", .int)]),
        Table(name: "article_reads", columns: [("user_id", .int), ("article_id", .int), ("read_at", .int)]),
        Table(name: "external_identities", columns: [("provider", .text), ("subject", .text), ("user_id", .int),
                                                     ("provider_username", .text), ("created_at", .int)]),
        Table(name: "live_games", columns: [("id", .int), ("pin", .text), ("quiz_id", .int), ("host_user_id", .int), ("title", .text),
                                            ("question_ids", .text), ("settings", .text), ("phase", .text), ("question_index", .int),
                                            ("opened_at", .int), ("deadline", .int), ("advance_at", .int), ("locked", .bool),
                                            ("created_at", .int), ("ended_at", .int)]),
        Table(name: "live_players", columns: [("game_id", .int), ("id", .int), ("nickname", .text), ("user_id", .int), ("team", .int),
                                              ("secret_hash", .text), ("code_hash", .text), ("kicked", .bool), ("joined_at", .int)]),
        Table(name: "live_answers", columns: [("game_id", .int), ("player_id", .int), ("question_index", .int), ("question_id", .int),
                                              ("answer", .text), ("correct", .bool), ("late", .bool), ("points", .int), ("bonus", .int),
                                              ("milliseconds", .int), ("answered_at", .int)]),
        Table(name: "classes", columns: [("id", .int), ("code", .text), ("owner_user_id", .int), ("name", .text), ("joining_open", .bool),
                                         ("created_at", .int)]),
        Table(name: "class_members", columns: [("class_id", .int), ("user_id", .int), ("joined_at", .int)]),
        Table(name: "assignments", columns: [("id", .int), ("code", .text), ("quiz_id", .int), ("owner_user_id", .int), ("title", .text),
                                             ("question_ids", .text), ("settings", .text), ("opens_at", .int), ("closes_at", .int),
                                             ("created_at", .int), ("class_id", .int)]),
        Table(name: "assignment_players", columns: [("id", .int), ("assignment_id", .int), ("nickname", .text), ("nickname_key", .text),
                                                    ("user_id", .int), ("secret_hash", .text), ("code_hash", .text), ("joined_at", .int)]),
        Table(name: "assignment_attempts", columns: [("id", .int), ("assignment_id", .int), ("player_id", .int), ("number", .int),
                                                     ("question_ids", .text), ("max_marks", .int), ("started_at", .int), ("finished_at", .int),
                                                     ("marks", .int)]),
        Table(name: "assignment_answers", columns: [("attempt_id", .int), ("position", .int), ("question_id", .int), ("shown_at", .int),
                                                    ("answer", .text), ("correct", .bool), ("marks", .int), ("answered_at", .int)]),
        // live_games' owner and lease_until are left out: they name a process of the old server,
        // and a game restored without them is taken by the first instance that runs.
        // oauth_pending is left out like rate_limits: a sign-in in flight lives ten minutes and
        // belongs to the browser that started it on the old instance.
    ]

    struct Header: Codable { var quizbox: String = "database dump"; var schemaVersion: Int }
    struct TableLine: Codable { var table: String; var columns: [String] }

    /// Writes every table of `database` (migrated to the latest version) through `write`, one line
    /// at a time, from one read-only snapshot (`QuizDatabase.snapshot`), so the dump is consistent
    /// while a server goes on writing. Returns the rows per table.
    @discardableResult
    public static func export(_ database: QuizDatabase, write: @Sendable (Data) throws -> Void) async throws -> [String: Int] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]  // the same rows, the same bytes
        return try await database.snapshot { db in
            var counts: [String: Int] = [:]
            try write(try encoder.encode(Header(schemaVersion: Migrations.latestVersion)) + Data("\n".utf8))
            for table in tables {
                try write(try encoder.encode(TableLine(table: table.name, columns: table.columns.map(\.name))) + Data("\n".utf8))
                let rows = try await rows(of: table, on: db)
                for values in rows { try write(try encoder.encode(values) + Data("\n".utf8)) }
                counts[table.name] = rows.count
            }
            return counts
        }
    }

    /// Every row of `table`, each column read as its kind, in an order fixed by every column, so
    /// the same rows give the same file from either database.
    static func rows(of table: Table, on db: any SQLDatabase) async throws -> [[Value]] {
        let names = table.columns.map(\.name).joined(separator: ", ")
        let order = table.columns.indices.map { String($0 + 1) }.joined(separator: ", ")
        return try await db.raw(SQLQueryString("SELECT \(names) FROM \(table.name) ORDER BY \(order)")).all().map { row in
            try table.columns.map { column -> Value in
                switch column.kind {
                case .int: try row.decode(column: column.name, as: Int64?.self).map(Value.int) ?? .null
                case .text: try row.decode(column: column.name, as: String?.self).map(Value.text) ?? .null
                case .bool: try row.decode(column: column.name, as: Bool?.self).map(Value.bool) ?? .null
                }
            }
        }
    }

    /// Copies every table of `source` (migrated to the latest version) into an empty `target` in
    /// one transaction, reading `source` from one snapshot: a restore from a SQLite backup file,
    /// into either database. Returns the rows per table.
    @discardableResult
    public static func copy(from source: QuizDatabase, into target: QuizDatabase) async throws -> [String: Int] {
        try await source.snapshot { src in
            try await load(into: target) { db in
                var counts: [String: Int] = [:]
                for table in tables {
                    let rows = try await rows(of: table, on: src)
                    var inserts = Inserts(table)
                    for (index, values) in rows.enumerated() { try await inserts.add(values, line: index + 1, on: db) }
                    try await inserts.flush(on: db)
                    counts[table.name] = rows.count
                }
                return counts
            }
        }
    }

    /// Loads a dump into an empty, migrated database in one transaction: all of it or nothing.
    /// Returns the rows per table.
    @discardableResult
    public static func `import`(_ lines: [Substring], into database: QuizDatabase) async throws -> [String: Int] {
        let decoder = JSONDecoder()
        func decode<T: Decodable>(_ type: T.Type, _ index: Int) throws -> T {
            do { return try decoder.decode(type, from: Data(lines[index].utf8)) } catch {
                throw DumpError.unreadable(line: index + 1, reason: "not a line of a Quizbox database dump")
            }
        }
        guard !lines.isEmpty else { throw DumpError.unreadable(line: 1, reason: "the file is empty") }
        let header = try decode(Header.self, 0)
        guard readableVersions.contains(header.schemaVersion) else {
            throw DumpError.wrongSchema(found: header.schemaVersion, expected: Migrations.latestVersion)
        }
        return try await load(into: database) { db in
            var counts: [String: Int] = [:]
            var current: Inserts?
            for index in 1..<lines.count where !lines[index].isEmpty {
                if lines[index].hasPrefix("{") {
                    let line = try decode(TableLine.self, index)
                    // An older dump may lack columns added at a table's end since (16: questions' pictures).
                    guard let known = tables.first(where: { $0.name == line.table }), line.columns.count <= known.columns.count,
                          Array(known.columns.map(\.name).prefix(line.columns.count)) == line.columns else {
                        throw DumpError.unreadable(line: index + 1, reason: "unknown table or columns \(line.table)")
                    }
                    let table = Table(name: known.name, columns: Array(known.columns.prefix(line.columns.count)))
                    // The rows of the table before go in first: foreign keys follow the table order.
                    try await current?.flush(on: db)
                    current = Inserts(table)
                    counts[table.name] = 0
                    continue
                }
                guard let table = current?.table else { throw DumpError.unreadable(line: index + 1, reason: "a row before any table") }
                let values = try decode([Value].self, index)
                guard values.count == table.columns.count else {
                    throw DumpError.unreadable(line: index + 1, reason: "\(values.count) values for \(table.columns.count) columns")
                }
                try await current?.add(values, line: index + 1, on: db)
                counts[table.name, default: 0] += 1
            }
            try await current?.flush(on: db)
            // What migrations after the dump's version did to rows, done to its rows too.
            if header.schemaVersion < 15 {
                // 15: a name-them-all question in a quiz could never be answered; it stays in its topic's bank.
                try await db.raw("""
                    DELETE FROM quiz_questions WHERE question_id IN (SELECT id FROM questions WHERE kind = 'nameAll')
                    """).run()
            }
            return counts
        }
    }

    /// Runs `fill` in one transaction on `database`, which must hold no users or questions and
    /// is emptied first; then moves PostgreSQL's id sequences past the copied ids and tells
    /// running instances their caches are stale.
    static func load(into database: QuizDatabase, _ fill: (any SQLDatabase) async throws -> [String: Int]) async throws -> [String: Int] {
        let counts = try await database.transaction { db in
            let users = try await db.raw("SELECT COUNT(*) AS n FROM users").first()?.decode(column: "n", as: Int.self) ?? 0
            let questions = try await db.raw("SELECT COUNT(*) AS n FROM questions").first()?.decode(column: "n", as: Int.self) ?? 0
            guard users == 0, questions == 0 else { throw DumpError.notEmpty }
            // A migrated database may hold empty catalog rows or buckets: start from nothing.
            for table in tables.reversed() { try await db.raw(SQLQueryString("DELETE FROM \(table.name)")).run() }
            let counts = try await fill(db)
            if database.dialect == .postgres {
                for table in tables where table.hasId {
                    // Identity columns do not move when ids are given: continue after the largest copied.
                    try await db.raw(SQLQueryString("""
                        SELECT setval(pg_get_serial_sequence('\(table.name)', 'id'), COALESCE((SELECT MAX(id) FROM \(table.name)), 0) + 1, false)
                        """)).run()
                }
            }
            return counts
        }
        // Instances already running on this database may have cached the empty catalog.
        if database.dialect == .postgres { try await ChangeTracker(database: database).publish(.all) }
        return counts
    }

    /// Dumps these schema versions wrote load: versions after the first of them added no table, and
    /// columns only at a table's end (16), which an older dump leaves null.
    static let readableVersions = 10...Migrations.latestVersion

    /// One table's rows gathered into multi-row INSERTs: a round trip per 500 rows rather than
    /// per row (PostgreSQL took most of a restore's time answering them one by one).
    struct Inserts {
        static let rowsPerStatement = 500
        let table: Table
        private var query: SQLQueryString?
        private var rows = 0

        init(_ table: Table) { self.table = table }

        /// Adds a row (each value checked against its column: `line` names it when one does not fit).
        mutating func add(_ values: [Value], line: Int, on db: any SQLDatabase) async throws {
            var next = query ?? SQLQueryString("INSERT INTO \(table.name) (\(table.columns.map(\.name).joined(separator: ", "))) VALUES ")
            next.appendLiteral(rows == 0 ? "(" : ", (")
            for (index, (value, column)) in zip(values, table.columns).enumerated() {
                if index > 0 { next.appendLiteral(", ") }
                switch (column.kind, value) {
                case (.int, .int(let int)): next.appendInterpolation(bind: int)
                case (.int, .null): next.appendInterpolation(bind: Int64?.none)
                case (.text, .text(let text)): next.appendInterpolation(bind: text)
                case (.text, .null): next.appendInterpolation(bind: String?.none)
                case (.bool, .bool(let bool)): next.appendInterpolation(bind: bool)
                case (.bool, .int(let int)) where int == 0 || int == 1: next.appendInterpolation(bind: int == 1)
                case (.bool, .null): next.appendInterpolation(bind: Bool?.none)
                default: throw DumpError.unreadable(line: line, reason: "\(table.name).\(column.name) cannot hold \(value)")
                }
            }
            next.appendLiteral(")")
            query = next
            rows += 1
            if rows == Self.rowsPerStatement { try await flush(on: db) }
        }

        /// Runs what is gathered.
        mutating func flush(on db: any SQLDatabase) async throws {
            guard let query else { return }
            try await db.raw(query).run()
            self.query = nil
            rows = 0
        }
    }
}
