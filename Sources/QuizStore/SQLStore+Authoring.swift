import Foundation
import QuizCore
import SQLKit

extension CatalogLevel {
    var table: String {
        switch self {
        case .subject: "subjects"
        case .topic: "topics"
        case .quiz: "quizzes"
        }
    }

    /// The column naming the parent; subjects have none.
    var parentColumn: String? {
        switch self {
        case .subject: nil
        case .topic: "subject_id"
        case .quiz: "topic_id"
        }
    }

    var parentTable: String? {
        switch self {
        case .subject: nil
        case .topic: "subjects"
        case .quiz: "topics"
        }
    }

    var nameColumn: String { self == .quiz ? "title" : "name" }
}

extension SQLStore: AuthoringStore {
    public func outline() async throws -> [OutlineSubject] {
        try await database.read { db in
            let subjects = try await db.raw("SELECT id, name, description FROM subjects ORDER BY position, id").all()
            let topics = try await db.raw("""
                SELECT t.id, t.subject_id, t.name, t.description,
                  (SELECT COUNT(*) FROM questions x WHERE x.topic_id = t.id AND x.archived_at IS NULL) AS n
                FROM topics t ORDER BY t.position, t.id
                """).all()
            let quizzes = try await db.raw("""
                SELECT q.id, q.topic_id, q.title, q.description, q.published,
                  (SELECT COUNT(*) FROM quiz_questions qq WHERE qq.quiz_id = q.id) AS n
                FROM quizzes q ORDER BY q.position, q.id
                """).all().map(Self.decodeOutlineQuiz)
            let quizzesByTopic = Dictionary(grouping: quizzes, by: \.topicId)
            let topicsBySubject = Dictionary(grouping: try topics.map { row in
                let id = try row.int64("id")
                return OutlineTopic(id: id, subjectId: try row.int64("subject_id"), name: try row.string("name"),
                                    description: try row.string("description"), questionCount: try row.int("n"),
                                    quizzes: quizzesByTopic[id] ?? [])
            }, by: \.subjectId)
            return try subjects.map { row in
                let id = try row.int64("id")
                return OutlineSubject(id: id, name: try row.string("name"), description: try row.string("description"),
                                      topics: topicsBySubject[id] ?? [])
            }
        }
    }

    static func decodeOutlineQuiz(_ row: any SQLRow) throws -> OutlineQuiz {
        OutlineQuiz(id: try row.int64("id"), topicId: try row.int64("topic_id"), title: try row.string("title"),
                    description: try row.string("description"), isPublished: try row.bool("published"),
                    questionCount: try row.int("n"))
    }

    public func managedQuiz(id: Int64) async throws -> ManagedQuiz? {
        try await database.read { db in
            guard let quiz = try await db.raw("""
                SELECT q.id, q.topic_id, q.title, q.description, q.published,
                  (SELECT COUNT(*) FROM quiz_questions qq WHERE qq.quiz_id = q.id) AS n
                FROM quizzes q WHERE q.id = \(bind: id)
                """).first().map(Self.decodeOutlineQuiz) else { return nil }
            let questions = try await db.raw("""
                SELECT \(unsafeRaw: Self.questionColumns) FROM quiz_questions qq JOIN questions x ON x.id = qq.question_id
                WHERE qq.quiz_id = \(bind: id) ORDER BY qq.position
                """).all().map(QuestionBodyRecord.decodeQuestion)
            return ManagedQuiz(quiz: quiz, questions: questions)
        }
    }

    public func topicQuestions(topicId: Int64) async throws -> [Question]? {
        try await database.read { db in
            guard try await db.raw("SELECT id FROM topics WHERE id = \(bind: topicId)").first() != nil else { return nil }
            return try await db.raw("""
                SELECT \(unsafeRaw: Self.questionColumns) FROM questions x
                WHERE x.topic_id = \(bind: topicId) AND x.archived_at IS NULL ORDER BY x.id
                """).all().map(QuestionBodyRecord.decodeQuestion)
        }
    }

    public func managedQuestion(id: Int64) async throws -> (topicId: Int64, question: Question)? {
        try await database.read { db in
            try await db.raw("""
                SELECT \(unsafeRaw: Self.questionColumns), x.topic_id FROM questions x
                WHERE x.id = \(bind: id) AND x.archived_at IS NULL
                """).first().map { (topicId: try $0.int64("topic_id"), question: try QuestionBodyRecord.decodeQuestion($0)) }
        }
    }

    // MARK: - Subjects, topics, quizzes

    public func create(_ level: CatalogLevel, parent: Int64?, name: String, description: String) async throws -> Int64 {
        return try await database.transaction { db in
            var parentFilter: SQLQueryString = ""
            var columns: SQLQueryString = ""
            var values: SQLQueryString = ""
            if let column = level.parentColumn, let table = level.parentTable {
                guard let parent, try await db.raw("SELECT id FROM \(unsafeRaw: table) WHERE id = \(bind: parent)").first() != nil
                else { throw StoreError.notFound }
                parentFilter = " WHERE \(unsafeRaw: column) = \(bind: parent)"
                columns = "\(unsafeRaw: column), "
                values = "\(bind: parent), "
            }
            // New quizzes are drafts; a new subject or topic shows once it holds a published quiz.
            columns = "\(columns)published, "
            values = "\(values)\(bind: false), "
            let position = try await db.raw("""
                SELECT COALESCE(MAX(position), 0) + 1 AS p FROM \(unsafeRaw: level.table)\(parentFilter)
                """).first()?.int("p") ?? 1
            guard let id = try await db.raw("""
                INSERT INTO \(unsafeRaw: level.table) (\(columns)\(unsafeRaw: level.nameColumn), description, position)
                VALUES (\(values)\(bind: name), \(bind: description), \(bind: position)) RETURNING id
                """).first()?.int64("id") else { throw StoreError.notFound }
            return id
        }
    }

    public func update(_ level: CatalogLevel, id: Int64, _ change: CatalogChange) async throws {
        try await database.transaction { db in
            // The name and description too, when unchanged: this is also the check that it exists.
            guard try await db.raw("""
                UPDATE \(unsafeRaw: level.table) SET \(unsafeRaw: level.nameColumn) = COALESCE(\(bind: change.name), \(unsafeRaw: level.nameColumn)),
                  description = COALESCE(\(bind: change.description), description)
                WHERE id = \(bind: id) RETURNING id
                """).first() != nil else { throw StoreError.notFound }
            if let position = change.position { try await Self.move(db, level, id: id, to: position) }
            if let published = change.published, level == .quiz {
                try await db.raw("UPDATE quizzes SET published = \(bind: published) WHERE id = \(bind: id)").run()
            }
            if let cover = change.cover, level != .topic {
                var picture: CoverPicture?
                if case .set(let set) = cover { picture = set }
                try await db.raw("""
                    UPDATE \(unsafeRaw: level.table) SET cover_hash = \(bind: picture?.hash), cover_type = \(bind: picture?.type.rawValue),
                      cover_width = \(bind: picture?.width), cover_height = \(bind: picture?.height)
                    WHERE id = \(bind: id)
                    """).run()
            }
        }
    }

    public func cover(_ level: CatalogLevel, id: Int64) async throws -> CoverPicture? {
        try await database.read { db in
            guard level != .topic else {
                guard try await db.raw("SELECT id FROM topics WHERE id = \(bind: id)").first() != nil else { throw StoreError.notFound }
                return nil
            }
            guard let row = try await db.raw("""
                SELECT cover_hash, cover_type, cover_width, cover_height FROM \(unsafeRaw: level.table) WHERE id = \(bind: id)
                """).first() else { throw StoreError.notFound }
            return try Self.decodeCover(row)
        }
    }

    /// Renumbers the siblings 1, 2, 3… with `id` at `position` (clamped).
    private static func move(_ db: any SQLDatabase, _ level: CatalogLevel, id: Int64, to position: Int) async throws {
        var parent: SQLQueryString = ""
        if let column = level.parentColumn {
            guard let row = try await db.raw("SELECT \(unsafeRaw: column) AS p FROM \(unsafeRaw: level.table) WHERE id = \(bind: id)")
                .first() else { throw StoreError.notFound }
            parent = " WHERE \(unsafeRaw: column) = \(bind: try row.int64("p"))"
        }
        var ids = try await db.raw("SELECT id FROM \(unsafeRaw: level.table)\(parent) ORDER BY position, id").all()
            .map { try $0.int64("id") }
        ids.removeAll { $0 == id }
        ids.insert(id, at: min(max(position, 1), ids.count + 1) - 1)
        for (index, sibling) in ids.enumerated() {
            try await db.raw("UPDATE \(unsafeRaw: level.table) SET position = \(bind: index + 1) WHERE id = \(bind: sibling)").run()
        }
    }

    public func delete(_ level: CatalogLevel, id: Int64) async throws {
        // A deleted quiz leaves its article's card without one.
        try await database.transaction { db in
            guard try await db.raw("SELECT id FROM \(unsafeRaw: level.table) WHERE id = \(bind: id)").first() != nil else {
                throw StoreError.notFound
            }
            switch level {
            case .subject:
                if try await db.raw("SELECT id FROM topics WHERE subject_id = \(bind: id) LIMIT 1").first() != nil {
                    throw AuthoringError.notEmpty
                }
            case .topic:
                // Archived questions count too: players' history still shows their text.
                let quiz = try await db.raw("SELECT id FROM quizzes WHERE topic_id = \(bind: id) LIMIT 1").first()
                let question = try await db.raw("SELECT id FROM questions WHERE topic_id = \(bind: id) LIMIT 1").first()
                if quiz != nil || question != nil { throw AuthoringError.notEmpty }
            case .quiz:
                if try await db.raw("SELECT id FROM attempts WHERE quiz_id = \(bind: id) LIMIT 1").first() != nil {
                    throw AuthoringError.quizHasAttempts
                }
                try await db.raw("DELETE FROM quiz_questions WHERE quiz_id = \(bind: id)").run()
                // What ON DELETE SET NULL does, also on SQLite, where foreign keys are not enforced.
                try await db.raw("UPDATE articles SET quiz_id = NULL WHERE quiz_id = \(bind: id)").run()
            }
            try await db.raw("DELETE FROM \(unsafeRaw: level.table) WHERE id = \(bind: id)").run()
        }
    }

    // MARK: - Questions

    public func createQuestion(_ question: Question, topicId: Int64, appendingTo quizId: Int64?, at date: Date) async throws -> Int64 {
        return try await database.transaction { db in
            guard try await db.raw("SELECT id FROM topics WHERE id = \(bind: topicId)").first() != nil else { throw StoreError.notFound }
            if let quizId {
                guard try await db.raw("SELECT id FROM quizzes WHERE id = \(bind: quizId) AND topic_id = \(bind: topicId)").first() != nil
                else { throw StoreError.notFound }
                if question.kind == .nameAll { throw AuthoringError.nameAllInQuiz(0) }
            }
            guard let id = try await insertQuestions(db, [question], topicId: topicId, at: date).first else { throw StoreError.notFound }
            if let quizId {
                try await db.raw("""
                    INSERT INTO quiz_questions (quiz_id, question_id, position)
                    SELECT \(bind: quizId), \(bind: id), COALESCE(MAX(position), 0) + 1 FROM quiz_questions WHERE quiz_id = \(bind: quizId)
                    """).run()
            }
            return id
        }
    }

    public func updateQuestion(_ question: Question) async throws {
        guard let id = question.id else { throw StoreError.notFound }
        try await database.transaction { db in
            guard let kind = try await db.raw("SELECT kind FROM questions WHERE id = \(bind: id) AND archived_at IS NULL")
                .first()?.string("kind") else { throw StoreError.notFound }
            if kind != question.kind.rawValue, try await Self.hasAnswers(db, questionId: id) { throw AuthoringError.kindLocked }
            if question.kind == .nameAll, kind != question.kind.rawValue,
               try await db.raw("SELECT quiz_id FROM quiz_questions WHERE question_id = \(bind: id) LIMIT 1").first() != nil {
                throw AuthoringError.nameAllInQuiz(id)
            }
            // Answers keep the verdict and points they were given, so editing never rescores them.
            try await db.raw("""
                UPDATE questions SET kind = \(bind: question.kind.rawValue), text = \(bind: question.text),
                  explanation = \(bind: question.explanation), difficulty = \(bind: question.difficulty.rawValue),
                  points = \(bind: question.points), body = \(bind: try QuestionBodyRecord.encode(question)),
                  picture_hash = \(bind: question.picture?.hash), picture_type = \(bind: question.picture?.type.rawValue),
                  picture_alt = \(bind: question.picture?.alt), picture_width = \(bind: question.picture?.width),
                  picture_height = \(bind: question.picture?.height),
                  audio_hash = \(bind: question.audio?.hash), audio_type = \(bind: question.audio?.type.rawValue),
                  audio_description = \(bind: question.audio?.description),
                  audio_milliseconds = \(bind: question.audio.map { Int(($0.seconds * 1000).rounded()) })
                WHERE id = \(bind: id)
                """).run()
        }
    }

    public func deleteQuestion(id: Int64, at date: Date) async throws {
        try await database.transaction { db in
            guard try await db.raw("SELECT id FROM questions WHERE id = \(bind: id) AND archived_at IS NULL").first() != nil else {
                throw StoreError.notFound
            }
            try await db.raw("DELETE FROM quiz_questions WHERE question_id = \(bind: id)").run()
            if try await Self.hasAnswers(db, questionId: id) {
                try await db.raw("UPDATE questions SET archived_at = \(bind: date.millis) WHERE id = \(bind: id)").run()
            } else {
                try await db.raw("DELETE FROM questions WHERE id = \(bind: id)").run()
            }
        }
    }

    static func hasAnswers(_ db: any SQLDatabase, questionId: Int64) async throws -> Bool {
        try await db.raw("SELECT attempt_id FROM answers WHERE question_id = \(bind: questionId) LIMIT 1").first() != nil
    }

    public func setQuizQuestions(quizId: Int64, questionIds: [Int64]) async throws {
        try await database.transaction { db in
            guard let topicId = try await db.raw("SELECT topic_id FROM quizzes WHERE id = \(bind: quizId)").first()?.int64("topic_id")
            else { throw StoreError.notFound }
            let kinds = Dictionary(uniqueKeysWithValues: try await db.raw("""
                SELECT id, kind FROM questions WHERE topic_id = \(bind: topicId) AND archived_at IS NULL
                """).all().map { (try $0.int64("id"), try $0.string("kind")) })
            var seen = Set<Int64>()
            let ids = questionIds.filter { seen.insert($0).inserted }
            if let stranger = ids.first(where: { kinds[$0] == nil }) { throw AuthoringError.questionNotInTopic(stranger) }
            if let game = ids.first(where: { kinds[$0] == QuestionKind.nameAll.rawValue }) { throw AuthoringError.nameAllInQuiz(game) }
            try await db.raw("DELETE FROM quiz_questions WHERE quiz_id = \(bind: quizId)").run()
            for start in stride(from: 0, to: ids.count, by: Self.rowsPerInsert) {
                let rows: [SQLQueryString] = (start..<min(start + Self.rowsPerInsert, ids.count)).map {
                    "(\(bind: quizId), \(bind: ids[$0]), \(bind: $0 + 1))"
                }
                try await db.raw("INSERT INTO quiz_questions (quiz_id, question_id, position) VALUES \(rows.joined(separator: ", "))").run()
            }
        }
    }

    // MARK: - Users and roles

    public func users(matching search: String, offset: Int, limit: Int) async throws -> UserPage {
        // LIKE's wildcards in the search are taken literally.
        let escaped = search.lowercased().replacingOccurrences(of: "\\", with: "\\\\")
            .replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_")
        let pattern = "%\(escaped)%"
        return try await database.read { db in
            let total = try await db.raw("""
                SELECT COUNT(*) AS n FROM users u WHERE u.username_key LIKE \(bind: pattern) ESCAPE '\\'
                """).first()?.int("n") ?? 0
            let users = try await db.raw("""
                SELECT \(unsafeRaw: Self.userColumns) FROM users u WHERE u.username_key LIKE \(bind: pattern) ESCAPE '\\'
                ORDER BY u.username_key LIMIT \(bind: limit) OFFSET \(bind: offset)
                """).all().map(Self.decodeUser)
            return UserPage(users: users, total: total)
        }
    }

    public func setRole(_ role: Role, userId: Int64) async throws -> User {
        let dialect = database.dialect
        return try await database.transaction { db in
            guard let current = try await db.raw("SELECT role FROM users WHERE id = \(bind: userId)").first()?.string("role")
            else { throw StoreError.notFound }
            if current == Role.admin.rawValue, role != .admin {
                // PostgreSQL runs writers side by side: locking the admins' rows makes two demotions
                // take turns, so the second counts after the first. SQLite has one writer already.
                let lock: SQLQueryString = dialect == .postgres ? " FOR UPDATE" : ""
                let admins = try await db.raw("SELECT id FROM users WHERE role = \(bind: Role.admin.rawValue)\(lock)").all().count
                if admins <= 1 { throw AuthoringError.lastAdmin }
            }
            guard let user = try await db.raw("""
                UPDATE users SET role = \(bind: role.rawValue) WHERE id = \(bind: userId)
                RETURNING id, username, first_name, last_name, role, points, created_at
                """).first().map(Self.decodeUser) else { throw StoreError.notFound }
            return user
        }
    }
}
