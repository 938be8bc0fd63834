import Foundation
import QuizCore
import SQLKit

extension SQLStore: CatalogStore {
    /// A subject or topic an author creates stays unpublished until it holds a published quiz, so
    /// work in progress never shows as an empty course; imported ones are published as before.
    static let visibleTopic = "(t.published OR EXISTS (SELECT 1 FROM quizzes vq WHERE vq.topic_id = t.id AND vq.published AND vq.practice_user_id IS NULL))"
    static let visibleSubject = """
        (s.published OR EXISTS (SELECT 1 FROM topics t WHERE t.subject_id = s.id AND \(visibleTopic)))
        """

    public func subjects() async throws -> [SubjectSummary] {
        try await database.read { db in
            try await db.raw("""
                SELECT s.id, s.name, s.description, s.cover_hash, s.cover_type, s.cover_width, s.cover_height,
                  (SELECT COUNT(*) FROM topics t WHERE t.subject_id = s.id AND \(unsafeRaw: Self.visibleTopic)) AS n
                FROM subjects s WHERE \(unsafeRaw: Self.visibleSubject) ORDER BY s.position, s.id
                """).all().map {
                SubjectSummary(id: try $0.int64("id"), name: try $0.string("name"),
                               description: try $0.string("description"), topicCount: try $0.int("n"), cover: try Self.decodeCover($0))
            }
        }
    }

    public func topics(subjectId: Int64) async throws -> [TopicSummary]? {
        try await database.read { db in
            guard try await db.raw("""
                SELECT s.id FROM subjects s WHERE s.id = \(bind: subjectId) AND \(unsafeRaw: Self.visibleSubject)
                """).first() != nil else { return nil }
            return try await db.raw("""
                SELECT t.id, t.subject_id, t.name, t.description,
                  (SELECT COUNT(*) FROM quizzes q WHERE q.topic_id = t.id AND q.published AND q.practice_user_id IS NULL) AS n
                FROM topics t WHERE t.subject_id = \(bind: subjectId) AND \(unsafeRaw: Self.visibleTopic) ORDER BY t.position, t.id
                """).all().map {
                TopicSummary(id: try $0.int64("id"), subjectId: try $0.int64("subject_id"), name: try $0.string("name"),
                             description: try $0.string("description"), quizCount: try $0.int("n"))
            }
        }
    }

    static let quizSummarySQL = """
        SELECT q.id, q.topic_id, q.title, q.description, q.time_limit_seconds, q.practice_user_id, q.published,
          q.cover_hash, q.cover_type, q.cover_width, q.cover_height,
          (SELECT COUNT(*) FROM quiz_questions qq WHERE qq.quiz_id = q.id) AS n,
          (\(gradedPoints("q.id"))) AS total
        FROM quizzes q
        """

    static func decodeQuiz(_ row: any SQLRow) throws -> QuizSummary {
        QuizSummary(id: try row.int64("id"), topicId: try row.int64("topic_id"), title: try row.string("title"),
                    description: try row.string("description"), questionCount: try row.int("n"),
                    totalPoints: try row.int("total"), timeLimitSeconds: try row.decode(column: "time_limit_seconds", as: Int?.self),
                    practiceUserId: try row.decode(column: "practice_user_id", as: Int64?.self), isPublished: try row.bool("published"),
                    cover: try decodeCover(row))
    }

    /// The row's `cover_*` columns; nil for none (or a type this build does not know).
    static func decodeCover(_ row: any SQLRow) throws -> CoverPicture? {
        guard let hash = try row.decode(column: "cover_hash", as: String?.self),
              let type = try row.decode(column: "cover_type", as: String?.self).flatMap(PostImageType.init(rawValue:)) else { return nil }
        return CoverPicture(hash: hash, type: type, width: try row.decode(column: "cover_width", as: Int?.self) ?? 0,
                            height: try row.decode(column: "cover_height", as: Int?.self) ?? 0)
    }

    public func quizzes(topicId: Int64) async throws -> [QuizSummary]? {
        try await database.read { db in
            guard try await db.raw("SELECT t.id FROM topics t WHERE t.id = \(bind: topicId) AND \(unsafeRaw: Self.visibleTopic)")
                .first() != nil else { return nil }
            return try await db.raw("""
                \(unsafeRaw: Self.quizSummarySQL) WHERE q.topic_id = \(bind: topicId) AND q.published AND q.practice_user_id IS NULL
                ORDER BY q.position, q.id
                """).all().map(Self.decodeQuiz)
        }
    }

    public func quiz(id: Int64) async throws -> QuizSummary? {
        try await database.read { db in
            // Drafts too: someone playing a quiz an author has since unpublished can still finish it.
            try await db.raw("\(unsafeRaw: Self.quizSummarySQL) WHERE q.id = \(bind: id)").first().map(Self.decodeQuiz)
        }
    }

    public func allQuizzes() async throws -> [QuizListing] {
        try await database.read { db in
            try await db.raw("""
                SELECT q.id, q.topic_id, q.title, q.description, q.time_limit_seconds, q.practice_user_id, q.published,
                  q.cover_hash, q.cover_type, q.cover_width, q.cover_height, t.name AS topic_name, s.name AS subject_name,
                  (SELECT COUNT(*) FROM quiz_questions qq WHERE qq.quiz_id = q.id) AS n,
                  (\(unsafeRaw: Self.gradedPoints("q.id"))) AS total
                FROM quizzes q JOIN topics t ON t.id = q.topic_id JOIN subjects s ON s.id = t.subject_id
                WHERE q.published AND q.practice_user_id IS NULL ORDER BY s.position, s.id, t.position, t.id, q.position, q.id
                """).all().map {
                QuizListing(quiz: try Self.decodeQuiz($0), topicName: try $0.string("topic_name"),
                            subjectName: try $0.string("subject_name"))
            }
        }
    }

    static let questionColumns = """
        x.id, x.kind, x.text, x.explanation, x.difficulty, x.points, x.body, \
        x.picture_hash, x.picture_type, x.picture_alt, x.picture_width, x.picture_height, \
        x.audio_hash, x.audio_type, x.audio_description, x.audio_milliseconds
        """

    public func questions(quizId: Int64) async throws -> [Question] {
        try await database.read { db in
            try await db.raw("""
                SELECT \(unsafeRaw: Self.questionColumns) FROM quiz_questions qq JOIN questions x ON x.id = qq.question_id
                WHERE qq.quiz_id = \(bind: quizId) ORDER BY qq.position
                """).all().map(QuestionBodyRecord.decodeQuestion)
        }
    }

    public func question(id: Int64, inQuiz quizId: Int64) async throws -> Question? {
        try await questions(quizId: quizId).first { $0.id == id }
    }

    /// Throws `StoreError.notFound` when the topic or quiz does not exist.
    public func exportBank(_ scope: ExportScope) async throws -> Bank {
        try await database.read { db in
            let topicFilter: SQLQueryString
            switch scope {
            case .everything: topicFilter = ""
            case .topic(let id): topicFilter = " WHERE t.id = \(bind: id)"
            case .quiz(let id): topicFilter = " WHERE t.id = (SELECT topic_id FROM quizzes WHERE id = \(bind: id))"
            }
            let topics = try await db.raw("""
                SELECT t.id, t.name, t.description, s.id AS subject_id, s.name AS subject_name, s.description AS subject_description
                FROM topics t JOIN subjects s ON s.id = t.subject_id\(topicFilter) ORDER BY s.position, s.id, t.position, t.id
                """).all()
            if topics.isEmpty, scope != .everything { throw StoreError.notFound }
            var subjects: [BankSubject] = []
            var subjectIds: [Int64] = []
            for row in topics {
                let topicId = try row.int64("id")
                var quizFilter: SQLQueryString = ""
                if case .quiz(let quizId) = scope { quizFilter = " AND id = \(bind: quizId)" }
                let quizRows = try await db.raw("""
                    SELECT id, title, description FROM quizzes WHERE topic_id = \(bind: topicId) AND practice_user_id IS NULL\(quizFilter)
                    ORDER BY position, id
                    """).all()
                var topic = BankTopic(name: try row.string("name"), description: try row.string("description"))
                var inQuizzes = Set<Int64>()
                for quizRow in quizRows {
                    let questions = try await db.raw("""
                        SELECT \(unsafeRaw: Self.questionColumns) FROM quiz_questions qq JOIN questions x ON x.id = qq.question_id
                        WHERE qq.quiz_id = \(bind: try quizRow.int64("id")) ORDER BY qq.position
                        """).all().map(QuestionBodyRecord.decodeQuestion)
                    questions.forEach { inQuizzes.insert($0.id ?? 0) }
                    topic.quizzes.append(BankQuiz(title: try quizRow.string("title"), description: try quizRow.string("description"),
                                                  questions: questions.map { var q = $0; q.id = nil; return q }))
                }
                if case .quiz = scope {} else {
                    // Bank-only questions (in no quiz of this topic) travel with their topic.
                    let loose = try await db.raw("""
                        SELECT \(unsafeRaw: Self.questionColumns) FROM questions x WHERE x.topic_id = \(bind: topicId)
                        AND NOT EXISTS (SELECT 1 FROM quiz_questions qq JOIN quizzes z ON z.id = qq.quiz_id
                          WHERE qq.question_id = x.id AND z.practice_user_id IS NULL) ORDER BY x.id
                        """).all().map(QuestionBodyRecord.decodeQuestion)
                    topic.questions = loose.filter { !inQuizzes.contains($0.id ?? 0) }.map { var q = $0; q.id = nil; return q }
                }
                let subjectId = try row.int64("subject_id")
                if subjectIds.last != subjectId {
                    subjects.append(BankSubject(name: try row.string("subject_name"), description: try row.string("subject_description")))
                    subjectIds.append(subjectId)
                }
                subjects[subjects.count - 1].topics.append(topic)
            }
            return Bank(subjects: subjects)
        }
    }

    public func isEmpty() async throws -> Bool {
        try await database.read { db in try await db.raw("SELECT id FROM subjects LIMIT 1").first() == nil }
    }

    /// Subjects and topics with the same name (ignoring case) as existing ones are added to, not repeated.
    public func importBank(_ bank: Bank, at date: Date) async throws -> ImportSummary {
        let dialect = database.dialect
        return try await database.transaction { db in
            try await Self.serialize(db, dialect, on: .catalog)
            var summary = ImportSummary()
            for subject in bank.subjects {
                let (subjectId, newSubject) = try await Self.findOrInsert(
                    db, table: "subjects", parent: nil, name: subject.name, description: subject.description)
                if newSubject { summary.subjects += 1 }
                for topic in subject.topics {
                    let (topicId, newTopic) = try await Self.findOrInsert(
                        db, table: "topics", parent: ("subject_id", subjectId), name: topic.name, description: topic.description)
                    if newTopic { summary.topics += 1 }
                    _ = try await insertQuestions(db, topic.questions, topicId: topicId, at: date)
                    summary.questions += topic.questions.count
                    for quiz in topic.quizzes {
                        let quizId = try await Self.insertQuiz(db, topicId: topicId, title: quiz.title, description: quiz.description)
                        summary.quizzes += 1
                        let ids = try await insertQuestions(db, quiz.questions, topicId: topicId, at: date)
                        try await Self.addToQuiz(db, quizId: quizId, questionIds: Self.quizQuestionIds(ids, of: quiz.questions), after: 0)
                        summary.questions += ids.count
                    }
                }
            }
            return summary
        }
    }

    static func findOrInsert(
        _ db: any SQLDatabase, table: String, parent: (column: String, id: Int64)?, name: String, description: String
    ) async throws -> (Int64, Bool) {
        let parentFilter: SQLQueryString = parent.map { " AND \(unsafeRaw: $0.column) = \(bind: $0.id)" } ?? ""
        let existing = try await db.raw("""
            SELECT id FROM \(unsafeRaw: table) WHERE LOWER(name) = LOWER(\(bind: name))\(parentFilter)
            """).first()
        if let id = try existing?.int64("id") { return (id, false) }
        let position = try await db.raw("""
            SELECT COALESCE(MAX(position), 0) + 1 AS p FROM \(unsafeRaw: table) WHERE 1 = 1\(parentFilter)
            """).first()?.int("p") ?? 1
        let parentColumn: SQLQueryString = parent.map { "\(unsafeRaw: $0.column), " } ?? ""
        let parentValue: SQLQueryString = parent.map { "\(bind: $0.id), " } ?? ""
        guard let id = try await db.raw("""
            INSERT INTO \(unsafeRaw: table) (\(parentColumn)name, description, position)
            VALUES (\(parentValue)\(bind: name), \(bind: description), \(bind: position)) RETURNING id
            """).first()?.int64("id") else { throw StoreError.notFound }
        return (id, true)
    }

    /// Rows per multi-row INSERT: well under SQLite's 32,766 bound values at fourteen a row.
    static let rowsPerInsert = 500

    /// Inserts questions many to a statement. Their ids are assigned here, consecutively after the
    /// largest one, because a multi-row RETURNING does not promise rows in order; callers hold the
    /// write transaction (and on PostgreSQL the catalog lock), so no other writer can take those ids meanwhile.
    func insertQuestions(_ db: any SQLDatabase, _ questions: [Question], topicId: Int64, at date: Date) async throws -> [Int64] {
        guard !questions.isEmpty else { return [] }
        try await Self.serialize(db, database.dialect, on: .catalog)
        let first = (try await db.raw("SELECT COALESCE(MAX(id), 0) AS m FROM questions").first()?.int64("m") ?? 0) + 1
        let ids = questions.indices.map { first + Int64($0) }
        for start in stride(from: 0, to: questions.count, by: Self.rowsPerInsert) {
            let rows: [SQLQueryString] = try (start..<min(start + Self.rowsPerInsert, questions.count)).map { index in
                var question = questions[index]
                // A picture nobody stored (no hash yet) has no file to show: none is recorded.
                if question.picture?.hash.isEmpty == true { question.picture = nil }
                if question.audio?.hash.isEmpty == true { question.audio = nil }
                return """
                    (\(bind: ids[index]), \(bind: topicId), \(bind: question.kind.rawValue), \(bind: question.text),
                     \(bind: question.explanation), \(bind: question.difficulty.rawValue), \(bind: question.points),
                     \(bind: try QuestionBodyRecord.encode(question)), \(bind: date.millis),
                     \(bind: question.picture?.hash), \(bind: question.picture?.type.rawValue), \(bind: question.picture?.alt),
                     \(bind: question.picture?.width), \(bind: question.picture?.height),
                     \(bind: question.audio?.hash), \(bind: question.audio?.type.rawValue), \(bind: question.audio?.description),
                     \(bind: question.audio.map { Int(($0.seconds * 1000).rounded()) }))
                    """
            }
            try await db.raw("""
                INSERT INTO questions (id, topic_id, kind, text, explanation, difficulty, points, body, created_at,
                  picture_hash, picture_type, picture_alt, picture_width, picture_height,
                  audio_hash, audio_type, audio_description, audio_milliseconds)
                VALUES \(rows.joined(separator: ", "))
                """).run()
        }
        if database.dialect == .postgres {
            // Explicit ids do not advance PostgreSQL's identity sequence; keep it ahead of them.
            try await db.raw("SELECT setval(pg_get_serial_sequence('questions', 'id'), \(bind: ids.last!))").run()
        }
        return ids
    }
}
