import Foundation
import QuizCore
import QuizServer
import QuizStore
import QuizText
import QuizUseCases
import SQLKit

/// A class's gradebook as its page asks for it: `Classes.view` (the class, its members and
/// assignments, every attempt with its marks summed in SQL, graded by each assignment's rule)
/// and the table's HTML, for `students` × `assignments` with one finished attempt of 10
/// answered questions per cell, on a SQLite file. Target: < 100 ms. The yardstick is reading the
/// attempts' ids alone, the least any gradebook over these rows could cost on this machine now.
/// With `keep`, the database is left there (the teacher is `teacher`) for `scripts/bench` to time
/// the gradebook and report pages through a running server.
enum GradebookBench {
    static func run(students: Int, assignments: Int, keep: String? = nil) async throws {
        let path = keep ?? FileManager.default.temporaryDirectory.appendingPathComponent("quizbench-gradebook-\(UUID().uuidString).sqlite").path
        defer { if keep == nil { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } } }
        let database = try await QuizDatabase.sqlite(path: path, poolSize: 2)
        try await Migrations.run(on: database)
        let store = CachedStore(SQLStore(database: database))
        let (classId, teacher) = try await seed(store, database: database, students: students, assignments: assignments)
        let time = SystemTimeSource()
        let classes = Classes(store: store, time: time, joins: RateLimiter(limit: 1, window: 60, time: time))
        let t = Texts.of(.en)
        var cells = 0, bytes = 0
        let whole = try await best {
            let view = try await classes.view(id: classId, userId: teacher)
            let html = GradebookTable.html(view.gradebook, at: Date(), t: t)
            cells = view.gradebook.rows.reduce(0) { $0 + $1.cells.count { $0 != nil } }
            bytes = html.utf8.count
        }
        let query = try await best { _ = try await store.gradebookAttempts(classId: classId) }
        let bare = try await best {
            _ = try await database.read { db in try await db.raw("SELECT id FROM assignment_attempts").all().count }
        }
        try await database.close()
        precondition(cells == students * assignments, "graded \(cells) of \(students * assignments) cells")
        print("")
        print("| benchmark | time | ratio to target | ratio to bare read | parts |")
        print("|---|---:|---:|---:|---|")
        print("| gradebook of \(students) students × \(assignments) assignments (\(students * assignments * 10) answers), computed and "
              + "rendered (target < 100 ms) | \(QuizBench.ms(whole)) | \(String(format: "%.2f×", whole / 0.1)) | "
              + "\(String(format: "%.1f×", whole / bare)) (bare: \(QuizBench.ms(bare))) | attempts query \(QuizBench.ms(query)); "
              + "HTML \(bytes / 1024) KB |")
    }

    /// A teacher, `students` members, `assignments` class assignments of one 10-question quiz,
    /// and per member and assignment one finished attempt with every question answered, written
    /// set-wise in a few statements.
    static func seed(_ store: CachedStore, database: QuizDatabase, students: Int, assignments: Int) async throws -> (Int64, Int64) {
        let questions = (1...10).map { Question(text: "Question \($0)?", difficulty: .easy, points: 1, body: .trueFalse($0 % 2 == 0)) }
        _ = try await store.importBank(Bank(subjects: [BankSubject(name: "S", topics: [
            BankTopic(name: "T", quizzes: [BankQuiz(title: "Quiz", questions: questions)]),
        ])]), at: Date())
        let quizId = try await store.allQuizzes().first?.quiz.id ?? 1
        let questionIds = try await store.questions(quizId: quizId).compactMap(\.id)
        let teacher = try await store.createUser(NewUser(username: "teacher", firstName: "T", lastName: "T", passwordHash: nil, role: .player,
                                                         createdAt: Date())).id
        let now = Date()
        guard let schoolClass = try await store.createClass(SchoolClass(code: "100200", ownerUserId: teacher, name: "Bench", createdAt: now))
        else { throw CocoaError(.fileWriteUnknown) }
        for index in 0..<assignments {
            _ = try await store.createAssignment(Assignment(
                code: String(200_000 + index), quizId: quizId, ownerUserId: teacher, title: "Week \(index + 1)", questionIds: questionIds,
                opensAt: now - 86_400, closesAt: now + Double(index + 1) * 3600,
                settings: AssignmentSettings(grading: AssignmentSettings.Grading.allCases[index % 4]), createdAt: now, classId: schoolClass.id))
        }
        let stamp = now.timeIntervalSince1970 * 1000
        try await database.transaction { db in
            try await db.raw("""
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(bind: students))
                INSERT INTO users (username, username_key, first_name, last_name, password_hash, role, points, created_at)
                SELECT 'student' || i, 'student' || i, 'S', 'S', '', 'player', 0, \(bind: Int64(stamp)) FROM n
                """).run()
            try await db.raw("""
                INSERT INTO class_members (class_id, user_id, joined_at)
                SELECT \(bind: schoolClass.id), id, \(bind: Int64(stamp)) FROM users WHERE username_key LIKE 'student%'
                """).run()
            try await db.raw("""
                INSERT INTO assignment_players (assignment_id, nickname, nickname_key, user_id, secret_hash, code_hash, joined_at)
                SELECT a.id, u.username, u.username_key, u.id, 's', 'c', \(bind: Int64(stamp))
                FROM assignments a JOIN class_members m ON m.class_id = a.class_id JOIN users u ON u.id = m.user_id
                """).run()
            try await db.raw("""
                INSERT INTO assignment_attempts (assignment_id, player_id, number, question_ids, max_marks, started_at, finished_at)
                SELECT assignment_id, id, 1, '[]', 10000, \(bind: Int64(stamp)), \(bind: Int64(stamp) + 60_000) FROM assignment_players
                """).run()
            try await db.raw("""
                WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 9)
                INSERT INTO assignment_answers (attempt_id, position, question_id, shown_at, answer, correct, marks, answered_at)
                SELECT t.id, n.i, n.i + 1, \(bind: Int64(stamp)), '{}', (t.id + n.i) % 3 = 0, ((t.id + n.i) % 3 = 0) * 1000, \(bind: Int64(stamp))
                FROM assignment_attempts t, n
                """).run()
            try await db.raw("""
                UPDATE assignment_attempts SET marks = (SELECT SUM(a.marks) FROM assignment_answers a WHERE a.attempt_id = assignment_attempts.id)
                """).run()
        }
        return (schoolClass.id, teacher)
    }

    /// The fastest of five runs.
    static func best(_ body: () async throws -> Void) async throws -> Double {
        var fastest = Double.infinity
        for _ in 0..<5 {
            let start = ContinuousClock.now
            try await body()
            let d = ContinuousClock.now - start
            fastest = min(fastest, Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18)
        }
        return fastest
    }
}
